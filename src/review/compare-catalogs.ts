import { canonicalText } from "../core/definition/canonical-text.js";
import { type ContentPart, templateContent } from "../core/definition/template-content.js";
import type { Template } from "../core/definition/template-types.js";
import { type DefinitionChange, definitionChanges } from "./definition-changes.js";
import { type ReviewItem, reviewItems, sortItems } from "./review-items.js";

/** A template on one side only. */
export interface TemplateSide {
  readonly id: string;
  readonly version: string;
}

/** A template whose version differs between base and head, with the parts that changed. */
export interface ChangedTemplate {
  readonly id: string;
  readonly base: string;
  readonly head: string;
  readonly parts: readonly ContentPart[];
  /** The settings that changed, each as both versions declare it, and each field read with its label. */
  readonly changes: readonly DefinitionChange[];
}

/** A template removed and one added with the same content: a new id for the same messages. */
export interface RenamedTemplate {
  readonly from: string;
  readonly to: string;
  readonly version: string;
}

/** What changed between two catalogs, template by template: the definition-level review. */
export interface CatalogComparison {
  readonly base: { readonly version: string; readonly templates: number };
  readonly head: { readonly version: string; readonly templates: number };
  /** In head only. A renamed template is here and in `removed`: its id is what the model names. */
  readonly added: readonly TemplateSide[];
  readonly removed: readonly TemplateSide[];
  /** Pairs of `removed` and `added` with the same version (a template's version does not hash its id). */
  readonly renamed: readonly RenamedTemplate[];
  readonly changed: readonly ChangedTemplate[];
  readonly unchanged: number;
  /** The changes a reviewer must look at, in the order of `reviewItemKinds`, then by template id. */
  readonly items: readonly ReviewItem[];
}

/** What `compareCatalogs` reads of a catalog. */
export interface ComparedCatalog {
  readonly version: string;
  readonly templates: readonly Template[];
}

/**
 * Compares two catalogs by definition: templates added, removed and changed (by content version), the
 * parts of each changed one, and the review items. Pure; ids are compared exactly.
 */
export function compareCatalogs(base: ComparedCatalog, head: ComparedCatalog): CatalogComparison {
  const before = byId(base.templates);
  const after = byId(head.templates);
  const added: TemplateSide[] = [];
  const changed: ChangedTemplate[] = [];
  const items: ReviewItem[] = [];
  let unchanged = 0;
  for (const [id, template] of after) {
    const old = before.get(id);
    if (old === undefined) {
      added.push({ id, version: template.version });
    } else if (old.version === template.version) {
      unchanged += 1;
    } else {
      changed.push({
        id,
        base: old.version,
        head: template.version,
        parts: changedParts(old, template),
        changes: definitionChanges(old, template),
      });
      items.push(...reviewItems(old, template));
    }
  }
  const removed = [...before.values()]
    .filter((template) => !after.has(template.id))
    .map((template) => ({ id: template.id, version: template.version }));
  return {
    base: { version: base.version, templates: base.templates.length },
    head: { version: head.version, templates: head.templates.length },
    added,
    removed,
    renamed: renames(removed, added),
    changed,
    unchanged,
    items: sortItems(items),
  };
}

/** The content parts whose canonical text differs. */
export function changedParts(base: Template, head: Template): ContentPart[] {
  const before = templateContent(base);
  const after = templateContent(head);
  return (Object.keys(after) as ContentPart[]).filter(
    (part) => canonicalText(before[part]) !== canonicalText(after[part]),
  );
}

/** Each removed template paired with the first added one of the same version not paired yet, by id. */
function renames(removed: readonly TemplateSide[], added: readonly TemplateSide[]): RenamedTemplate[] {
  const unpaired = [...added];
  const pairs: RenamedTemplate[] = [];
  for (const side of removed) {
    const index = unpaired.findIndex((other) => other.version === side.version);
    if (index === -1) continue;
    const [to] = unpaired.splice(index, 1);
    if (to !== undefined) pairs.push({ from: side.id, to: to.id, version: side.version });
  }
  return pairs;
}

function byId(templates: readonly Template[]): Map<string, Template> {
  const sorted = [...templates].sort((a, b) => compareText(a.id, b.id));
  return new Map(sorted.map((template) => [template.id, template]));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
