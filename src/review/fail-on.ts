import { type ReviewItem, type ReviewItemKind, reviewItemKinds } from "./review-items.js";

/** What `--fail-on` names: review item kinds, and a rise of the escalation rate past some points. */
export interface FailOn {
  readonly kinds: readonly ReviewItemKind[];
  /** `rate-up:N`: fail when head's escalation rate is more than N percentage points above base's. */
  readonly rateUp: number | undefined;
}

/** A `--fail-on` list read, or what is wrong with it. */
export type FailOnResult =
  | ({ readonly ok: true } & FailOn)
  | { readonly ok: false; readonly problem: string };

const names = () => `${reviewItemKinds.join(", ")}, rate-up:N`;

/**
 * Reads `--fail-on widened-reading,recipient-change,rate-up:2`: comma-separated review item kinds, and
 * `rate-up:N` with N in percentage points (0 to 100). An unknown name or a bad N is refused with the valid
 * ones, never ignored: a typo must not turn a CI gate off.
 */
export function parseFailOn(text: string): FailOnResult {
  const parts = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (parts.length === 0) return { ok: false, problem: `--fail-on needs at least one of ${names()}` };
  const kinds: ReviewItemKind[] = [];
  let rateUp: number | undefined;
  for (const name of parts) {
    if (name.startsWith("rate-up")) {
      const points = /^rate-up:(\d{1,3}(?:\.\d{1,4})?)$/.exec(name)?.[1];
      const value = points === undefined ? Number.NaN : Number(points);
      if (!(value >= 0 && value <= 100))
        return {
          ok: false,
          problem: `--fail-on: "${name.slice(0, 60)}" needs percentage points from 0 to 100, as in rate-up:2`,
        };
      rateUp = Math.min(rateUp ?? value, value);
      continue;
    }
    if (!(reviewItemKinds as readonly string[]).includes(name)) {
      return { ok: false, problem: `--fail-on: "${name.slice(0, 60)}" is not a review item; use ${names()}` };
    }
    if (!kinds.includes(name as ReviewItemKind)) kinds.push(name as ReviewItemKind);
  }
  return { ok: true, kinds, rateUp };
}

/** The named kinds that happened, each with how many times. */
export function failedKinds(
  items: readonly ReviewItem[],
  kinds: readonly ReviewItemKind[],
): { readonly kind: ReviewItemKind; readonly count: number }[] {
  return kinds
    .map((kind) => ({ kind, count: items.filter((item) => item.kind === kind).length }))
    .filter((entry) => entry.count > 0);
}
