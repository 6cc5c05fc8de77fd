import { canonicalText } from "../core/definition/canonical-text.js";
import type { Template } from "../core/definition/template-types.js";

/** A locale whose default text changed in some part while its own text of that part did not. */
export interface OutdatedTranslation {
  readonly template: string;
  readonly locale: string;
  /** The parts: "subject", "body", "html", or "choices.<slot>" for a choice slot's labels. */
  readonly parts: readonly string[];
}

/**
 * The translations that may be outdated: for each template on both sides with locales, each locale on
 * both sides whose text of a part (subject, body, HTML, a choice slot's labels) stayed the same while
 * the default locale's text of that part changed. Compared as written, so a locale that takes the
 * default's part (`missing: "default"`) changes with it and is never listed. A locale new in head is not
 * listed: it was written against the new text.
 */
export function outdatedTranslations(
  base: readonly Template[],
  head: readonly Template[],
): OutdatedTranslation[] {
  const before = new Map(base.map((template) => [template.id, template]));
  const outdated: OutdatedTranslation[] = [];
  for (const template of head) {
    const old = before.get(template.id);
    if (old?.locales === undefined || template.locales === undefined) continue;
    const changedDefault = changedParts(wording(old), wording(template));
    if (changedDefault.length === 0) continue;
    for (const tag of template.locales.tags) {
      if (tag === template.locales.default) continue;
      const oldVariant = old.locales.variants.get(tag);
      const newVariant = template.locales.variants.get(tag);
      if (oldVariant === undefined || newVariant === undefined) continue;
      const moved = new Set(changedParts(wording(oldVariant), wording(newVariant)));
      const parts = changedDefault.filter((part) => !moved.has(part));
      if (parts.length > 0) outdated.push({ template: template.id, locale: tag, parts });
    }
  }
  return outdated;
}

/**
 * A template's words in its own locale, part by part, as canonical text: the compiled texts, since a
 * locale's variant keeps the default's `source` and holds its own words only compiled.
 */
function wording(template: Template): Map<string, string> {
  const parts = new Map<string, string>([
    ["subject", canonicalText(template.subject)],
    ["body", canonicalText(template.body)],
    ["html", canonicalText(template.html)],
  ]);
  for (const compiled of template.resolveOrder) {
    if (compiled.slot.kind === "choice")
      parts.set(`choices.${compiled.name}`, canonicalText(compiled.slot.choices));
  }
  return parts;
}

/** The parts of `after` whose text differs from `before`'s (a part on one side only counts as changed). */
function changedParts(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([part, text]) => before.get(part) !== text).map(([part]) => part);
}
