import { type ReviewItem, type ReviewItemKind, reviewItemKinds } from "./review-items.js";

/** A `--fail-on` list read, or what is wrong with it. */
export type FailOnResult =
  | { readonly ok: true; readonly kinds: readonly ReviewItemKind[] }
  | { readonly ok: false; readonly problem: string };

/**
 * Reads `--fail-on widened-reading,recipient-change`: comma-separated review item kinds. An unknown
 * name is refused with the valid ones, never ignored: a typo must not turn a CI gate off.
 */
export function parseFailOn(text: string): FailOnResult {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (names.length === 0)
    return { ok: false, problem: `--fail-on needs at least one of ${reviewItemKinds.join(", ")}` };
  const kinds: ReviewItemKind[] = [];
  for (const name of names) {
    if (!(reviewItemKinds as readonly string[]).includes(name)) {
      return {
        ok: false,
        problem: `--fail-on: "${name.slice(0, 60)}" is not a review item; use ${reviewItemKinds.join(", ")}`,
      };
    }
    if (!kinds.includes(name as ReviewItemKind)) kinds.push(name as ReviewItemKind);
  }
  return { ok: true, kinds };
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
