import { type Ceiling, ceilingText } from "../core/definition/ceilings.js";
import type { Template } from "../core/definition/template-types.js";
import type { ChecklistItem } from "./types.js";

/**
 * The run-time controls of a template beyond its limits, one item each: value ceilings and the
 * first-contact policy. A control the `Template` type gains gets its line by adding a check to
 * `controlChecks`: a function of the compiled template, returning ✓, ✗ or ! with its evidence.
 */
export type ControlCheck = (template: Template) => ChecklistItem | undefined;

const control = (template: Template, fields: Omit<ChecklistItem, "section" | "template">): ChecklistItem => ({
  section: "controls",
  template: template.id,
  ...fields,
});

/** Where the template shows money: "collection.field", or the slot of a derived amount. */
function moneyShown(template: Template): string[] {
  return template.slots.flatMap((compiled) =>
    compiled.fields
      .filter((field) => field.format.kind === "money")
      .map((field) =>
        compiled.slot.kind === "ref"
          ? `${compiled.slot.collection}.${field.field}`
          : `${compiled.name} (computed)`,
      ),
  );
}

/**
 * Where a locale shows a ceiling's value otherwise than the default counts it: a template from a cast
 * or an older copy of formletter may hold one, though defineTemplate refuses it.
 */
function localeMismatches(template: Template, ceiling: Ceiling): string[] {
  const counted = new Map(
    template.slots.flatMap((compiled) => compiled.fields.map((field) => [field.tag, field.format] as const)),
  );
  const out: string[] = [];
  for (const [tag, variant] of template.locales?.variants ?? []) {
    for (const value of ceiling.values) {
      const field = variant.slots.flatMap((compiled) => compiled.fields).find((f) => f.tag === value);
      const counts = counted.get(value)?.counts;
      if (field === undefined || field.format.counts !== counts || field.format.uncounted !== undefined)
        out.push(
          `locale ${tag} shows ${value} as ${field?.format.counts ?? "nothing"}; the ceiling counts ${counts ?? "nothing"}`,
        );
    }
  }
  return out;
}

/**
 * Value ceilings: ✓ with each ceiling's bounds; ! (a warning, not a blocker) for an irreversible template
 * or one that shows money without any, since its worst case is then bounded in messages, not amounts.
 */
export const ceilingCheck: ControlCheck = (template) => {
  const ceilings = template.ceilings;
  if (ceilings.length > 0) {
    const summary = `${ceilings.length} value ceiling${ceilings.length === 1 ? "" : "s"}`;
    const mismatches = ceilings.flatMap((ceiling) => localeMismatches(template, ceiling));
    if (mismatches.length > 0) {
      return control(template, {
        check: "ceiling",
        status: "fail",
        summary: `${summary}, but a locale shows another amount than the ceiling counts`,
        evidence: [...mismatches, ...ceilings.map(ceilingText)],
      });
    }
    const tags = template.locales?.tags;
    return control(template, {
      check: "ceiling",
      status: "pass",
      summary,
      evidence: [
        ...ceilings.map(ceilingText),
        ...(tags === undefined
          ? []
          : [`every locale (${tags.join(", ")}) shows the amount each ceiling counts`]),
      ],
    });
  }
  const money = moneyShown(template);
  const reasons = [
    ...(template.effect === "irreversible" ? ["it is irreversible"] : []),
    ...(money.length > 0 ? [`it shows money (${money.join(", ")})`] : []),
  ];
  if (reasons.length === 0) {
    return control(template, {
      check: "ceiling",
      status: "pass",
      summary: "none needed: it shows no amount and is not irreversible",
      evidence: [],
    });
  }
  return control(template, {
    check: "ceiling",
    status: "warn",
    summary: `no value ceiling though ${reasons.join(" and ")}: its worst case is bounded in messages, not in amounts`,
    evidence: ['add ceilings: { name: { values: ["<tag of the amount>"], max: { EUR: { message, day } } } }'],
  });
};

/** The first-contact policy: shown as declared, since the outbox's default applies when it is unset. */
export const firstContactCheck: ControlCheck = (template) =>
  control(template, {
    check: "first_contact",
    status: "pass",
    summary:
      template.firstContact === "hold"
        ? "hold: a message to a recipient never written to before waits for a person"
        : template.firstContact === "send"
          ? "send: a first message to a new recipient goes out as decided, and is recorded"
          : "not set: the outbox's firstContact option decides",
    evidence: [],
  });

/** The control checks run for every template, in order. */
export const controlChecks: readonly ControlCheck[] = [ceilingCheck, firstContactCheck];

/** Every control item of `template`. */
export function controlItems(template: Template): ChecklistItem[] {
  return controlChecks.flatMap((check) => {
    const item = check(template);
    return item === undefined ? [] : [item];
  });
}
