/** The hour (counted from the epoch, as minutes are) a minute falls in. */
export function hourOf(minute: number): number {
  return Math.floor(minute / 60);
}

/** The first whole hour from minute `from` on: minutes before it are summed one by one, hours from it. */
export function firstWholeHour(from: number): number {
  return hourOf(from + 59);
}

/** A running total: the sum of every minute from `from` on, kept up to date as amounts are added. */
interface RunningSum {
  from: number;
  total: number;
}

// A window is usually asked for again a minute or less after its start last moved (a day's, an hour's):
// one sum per window, moved a minute at a time. Further than this, it is summed afresh.
const walkLimit = 60;
// The windows asked of one series (a template's day; a spend group's hour and day), with room to spare.
const runningSums = 4;

/**
 * Amounts per minute (sends, spend), with running totals from the starts of the windows asked for, so
 * a sum from a minute asked for before (or one close to it) costs the same at the millionth send as at
 * the first. A sum from anywhere else is counted from the per-minute amounts and their hourly totals,
 * reading at most the 59 minutes up to the next whole hour, then whole hours.
 */
export class MinuteSeries {
  private readonly minutes = new Map<number, number>();
  private readonly hours = new Map<number, number>();
  private latestHour = Number.NEGATIVE_INFINITY;
  private readonly sums: RunningSum[] = [];
  // The running total to replace when a new window is asked for and there is no room: each in turn.
  private nextReplaced = 0;

  add(minute: number, amount: number): void {
    const hour = hourOf(minute);
    this.minutes.set(minute, (this.minutes.get(minute) ?? 0) + amount);
    this.hours.set(hour, (this.hours.get(hour) ?? 0) + amount);
    if (hour > this.latestHour) this.latestHour = hour;
    for (const sum of this.sums) if (minute >= sum.from) sum.total += amount;
  }

  /** The sum of every minute from `from` on. */
  sumFrom(from: number): number {
    let nearest: RunningSum | undefined;
    for (const sum of this.sums)
      if (nearest === undefined || Math.abs(sum.from - from) < Math.abs(nearest.from - from)) nearest = sum;
    if (nearest !== undefined && Math.abs(nearest.from - from) <= walkLimit) {
      // Later: the minutes the window no longer holds leave the total; earlier (a clock set back): they join it.
      for (let minute = nearest.from; minute < from; minute++) nearest.total -= this.minutes.get(minute) ?? 0;
      for (let minute = from; minute < nearest.from; minute++) nearest.total += this.minutes.get(minute) ?? 0;
      nearest.from = from;
      return nearest.total;
    }
    const total = this.recount(from);
    if (this.sums.length < runningSums) this.sums.push({ from, total });
    else {
      this.sums[this.nextReplaced] = { from, total };
      this.nextReplaced = (this.nextReplaced + 1) % runningSums;
    }
    return total;
  }

  private recount(from: number): number {
    const first = firstWholeHour(from);
    let total = 0;
    for (let minute = from; minute < first * 60; minute++) total += this.minutes.get(minute) ?? 0;
    // Hour by hour up to the latest, unless there are fewer hours kept than that (a clock far ahead).
    if (this.latestHour - first < this.hours.size) {
      for (let hour = first; hour <= this.latestHour; hour++) total += this.hours.get(hour) ?? 0;
    } else {
      for (const [hour, amount] of this.hours) if (hour >= first) total += amount;
    }
    return total;
  }
}
