/** The hour (counted from the epoch, as minutes are) a minute falls in. */
export function hourOf(minute: number): number {
  return Math.floor(minute / 60);
}

/** The first whole hour from minute `from` on: minutes before it are summed one by one, hours from it. */
export function firstWholeHour(from: number): number {
  return hourOf(from + 59);
}

/**
 * Amounts per minute (sends, spend) kept with their hourly totals, so a sum from any minute on reads at
 * most the 59 minutes up to the next whole hour and then whole hours: a day back costs the same late in
 * a day of steady sending as at its start.
 */
export class MinuteSeries {
  private readonly minutes = new Map<number, number>();
  private readonly hours = new Map<number, number>();
  private latestHour = Number.NEGATIVE_INFINITY;

  add(minute: number, amount: number): void {
    const hour = hourOf(minute);
    this.minutes.set(minute, (this.minutes.get(minute) ?? 0) + amount);
    this.hours.set(hour, (this.hours.get(hour) ?? 0) + amount);
    if (hour > this.latestHour) this.latestHour = hour;
  }

  /** The sum of every minute from `from` on. */
  sumFrom(from: number): number {
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
