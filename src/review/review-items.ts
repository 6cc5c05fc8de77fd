import { canonicalText } from "../core/definition/canonical-text.js";
import type { PlacedLabel } from "../core/definition/label-tree.js";
import { type CompiledSlot, type Template, templateEffects } from "../core/definition/template-types.js";
import type { Format } from "../core/message/format.js";
import { recipientSource } from "./definition-changes.js";

/** The kinds of change a reviewer must look at whatever else changed, and `--fail-on` can name. */
export type ReviewItemKind =
  | "widened-reading"
  | "recipient-change"
  | "effect-lowered"
  | "approval-removed"
  | "limit-raised";

/** Every review item kind, in the order a review lists them. */
export const reviewItemKinds: readonly ReviewItemKind[] = [
  "widened-reading",
  "recipient-change",
  "effect-lowered",
  "approval-removed",
  "limit-raised",
];

/** Items in the order a review lists them: by kind (`reviewItemKinds`), then by template id. */
export function sortItems(items: readonly ReviewItem[]): ReviewItem[] {
  return [...items].sort(
    (a, b) =>
      reviewItemKinds.indexOf(a.kind) - reviewItemKinds.indexOf(b.kind) ||
      (a.template < b.template ? -1 : a.template > b.template ? 1 : 0),
  );
}

/** One change to look at: its kind, the template, and what changed in words. */
export interface ReviewItem {
  readonly kind: ReviewItemKind;
  readonly template: string;
  readonly detail: string;
}

/** The review items between two versions of one template (same id). */
export function reviewItems(base: Template, head: Template): ReviewItem[] {
  const items: ReviewItem[] = [];
  const add = (kind: ReviewItemKind, detail: string) => items.push({ kind, template: head.id, detail });
  if (base.audience !== head.audience && head.resolveOrder.some((slot) => slot.fields.length > 0))
    add(
      "widened-reading",
      `audience changed from "${base.audience}" to "${head.audience}": every field shown now goes to another role`,
    );
  for (const detail of widenedFields(base, head)) add("widened-reading", detail);
  if (recipientShape(base) !== recipientShape(head)) {
    const [before, after] = [recipientSource(base), recipientSource(head)];
    add(
      "recipient-change",
      before === after
        ? `the recipient is chosen differently: ${after}, with another where, join or address format`
        : `the recipient is chosen differently: ${before} → ${after}`,
    );
  }
  if (templateEffects.indexOf(head.effect) < templateEffects.indexOf(base.effect))
    add("effect-lowered", `effect lowered from ${base.effect} to ${head.effect}`);
  if (base.approval === "human" && head.approval !== "human")
    add("approval-removed", "approval removed: messages are sent without a person approving each draft");
  for (const limit of ["perTicket", "perDay"] as const) {
    if (head.limits[limit] > base.limits[limit])
      add("limit-raised", `${limit} raised from ${base.limits[limit]} to ${head.limits[limit]}`);
  }
  return items;
}

/**
 * Fields shown by both versions (same slot and tag) whose readers grew: a private label that allows
 * more roles, or that is gone. A field that is new in head is a changed slot, reviewed in the diff.
 */
function widenedFields(base: Template, head: Template): string[] {
  const before = fieldReaders(base);
  const details: string[] = [];
  for (const [place, readers] of fieldReaders(head)) {
    const old = before.get(place);
    if (old === undefined) continue;
    for (const [path, roles] of old) {
      const now = readers.get(path);
      const wider = now === undefined ? ["anyone"] : now.filter((role) => !roles.includes(role));
      if (wider.length > 0)
        details.push(
          `${place} reads ${path}, now readable by ${wider.join(", ")} (was only ${roles.join(", ")})`,
        );
    }
  }
  return details;
}

/** Per `slot.tag`, each private label's path and the roles it allows. */
function fieldReaders(template: Template): Map<string, Map<string, readonly string[]>> {
  const places = new Map<string, Map<string, readonly string[]>>();
  for (const slot of template.resolveOrder) {
    for (const field of slot.fields) {
      places.set(field.tag, privateRoles(field.labels));
    }
  }
  return places;
}

function privateRoles(labels: readonly PlacedLabel[]): Map<string, readonly string[]> {
  const roles = new Map<string, readonly string[]>();
  for (const { path, label } of labels) {
    if (label.kind !== "private") continue;
    // Two labels on one place: a reader must pass both, so the roles are those in every one.
    const earlier = roles.get(path);
    roles.set(
      path,
      earlier === undefined ? label.roles : earlier.filter((role) => label.roles.includes(role)),
    );
  }
  return roles;
}

/** How the recipient is chosen, labels left out (a widened label is a reading item, not a new recipient). */
function recipientShape(template: Template): string {
  const to: CompiledSlot = template.recipient;
  const slot = to.slot;
  return canonicalText({
    choice: template.recipientChoice,
    collection: slot.kind === "ref" ? slot.collection : undefined,
    where: slot.kind === "ref" ? slot.where : undefined,
    joins: to.joins,
    fields: to.fields.map((field) => [field.field, formatSpec(field.format)]),
  });
}

function formatSpec(format: Format): unknown {
  return format.spec ?? format.kind;
}
