const units: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * "7d", "24h", "30m", "2w" (minutes, hours, days, weeks) before `now`, in epoch milliseconds; undefined
 * for any other text. The one syntax of `formletter report --since` and the relay's `since` parameter.
 */
export function timeAgo(text: string, now: number): number | undefined {
  const relative = /^(\d{1,9})\s*([mhdw])$/.exec(text.trim());
  if (relative === null) return undefined;
  return now - Number(relative[1]) * (units[relative[2] as string] as number);
}
