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
    const hour = Math.floor(minute / 60);
    this.minutes.set(minute, (this.minutes.get(minute) ?? 0) + amount);
    this.hours.set(hour, (this.hours.get(hour) ?? 0) + amount);
    if (hour > this.latestHour) this.latestHour = hour;
  }

  /** The sum of every minute from `from` on. */
  sumFrom(from: number): number {
    const firstWholeHour = Math.floor((from + 59) / 60);
    let total = 0;
    for (let minute = from; minute < firstWholeHour * 60; minute++) total += this.minutes.get(minute) ?? 0;
    // Hour by hour up to the latest, unless there are fewer hours kept than that (a clock far ahead).
    if (this.latestHour - firstWholeHour < this.hours.size) {
      for (let hour = firstWholeHour; hour <= this.latestHour; hour++) total += this.hours.get(hour) ?? 0;
    } else {
      for (const [hour, amount] of this.hours) if (hour >= firstWholeHour) total += amount;
    }
    return total;
  }
}
