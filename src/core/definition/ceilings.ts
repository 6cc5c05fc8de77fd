import { DefinitionError, templateError } from "../errors.js";
import { currencyDigits, numberScale, toUnits } from "../message/amounts.js";
import type { Format } from "../message/format.js";

/** What the checks read of a compiled slot (a structural type: template.ts imports this file). */
interface ShownSlot {
  readonly fields: readonly { readonly tag: string; readonly format: Format }[];
}

/** The spans a ceiling bounds: one message, a rolling hour, a rolling 24 hours. */
export type CeilingWindow = "message" | "hour" | "day";

/** Every window, shortest first. */
export const ceilingWindows: readonly CeilingWindow[] = ["message", "hour", "day"];

/** The rolling windows a store sums, and their length in milliseconds. */
export const windowMs: Readonly<Record<Exclude<CeilingWindow, "message">, number>> = {
  hour: 60 * 60 * 1000,
  day: 24 * 60 * 60 * 1000,
};

/** The most one message, one rolling hour and one rolling day may add up to; at least one is given. */
export interface CeilingMaxima {
  readonly message?: number;
  readonly hour?: number;
  readonly day?: number;
}

/**
 * A bound on the amounts messages show, not only on how many are sent.
 *
 * @example
 * ceilings: {
 *   refunds: {
 *     values: ["refund.amount"],
 *     max: { EUR: { message: 200, hour: 2000, day: 10000 }, USD: { message: 220, day: 11000 } },
 *     group: "refunds",
 *   },
 * }
 */
export interface CeilingConfig {
  /** Tags of shown money (or number) values, e.g. "refund.amount", summed per message. */
  readonly values: readonly string[];
  /**
   * Money: maxima per ISO 4217 currency, in major units (`{ EUR: { message: 200, day: 10000 } }`); an
   * amount in a currency not listed is refused. Numbers: `{ message, hour, day }`.
   */
  readonly max: CeilingMaxima | Readonly<Record<string, CeilingMaxima>>;
  /**
   * Templates naming the same group share its windows (and must declare the same maxima).
   * @default the template's own: "<template id>.<ceiling name>"
   */
  readonly group?: string;
  /**
   * Over a maximum: `escalate` refuses the message (`limit_exceeded`, no draft to approve); `approval`
   * sends the draft to a person instead (`approval_required`), and an approved draft counts.
   * @default "escalate"
   */
  readonly over?: "escalate" | "approval";
}

/** A ceiling after definition-time checks; maxima in whole units (see amounts.ts). */
export interface Ceiling {
  readonly name: string;
  readonly group: string;
  readonly kind: "money" | "number";
  readonly values: readonly string[];
  /** By currency ("" for numbers): the maxima in whole units, rounded down. */
  readonly max: ReadonlyMap<string, { readonly [W in CeilingWindow]?: number }>;
  readonly over: "escalate" | "approval";
}

/**
 * What one message adds to one ceiling in one currency: the unit of every store sum. `currency` is
 * "" for numbers.
 */
export interface Spend {
  readonly ceiling: string;
  readonly group: string;
  readonly currency: string;
  readonly units: number;
}

const groupName = /^[a-z][a-z0-9_.-]{0,63}$/;
const ceilingName = /^[a-z][a-z0-9_]{0,63}$/;

/** Checks a template's `ceilings` against its slots. Every mistake names template, ceiling, value and fix. */
export function checkCeilings(id: string, config: unknown, slots: readonly ShownSlot[]): readonly Ceiling[] {
  if (config === undefined) return [];
  if (typeof config !== "object" || config === null || Array.isArray(config))
    templateError(
      id,
      'ceilings must be an object of named ceilings: { refunds: { values: ["refund.amount"], max: { EUR: { day: 1000 } } } }',
    );
  const fields = new Map(slots.flatMap((slot) => slot.fields.map((field) => [field.tag, field] as const)));
  const ceilings: Ceiling[] = [];
  for (const [name, spec] of Object.entries(config as Record<string, unknown>)) {
    const where = `ceiling "${name}"`;
    if (!ceilingName.test(name))
      templateError(id, `${where}: a ceiling name is lower-case letters, digits and "_"`);
    if (typeof spec !== "object" || spec === null)
      templateError(id, `${where} must be { values: [...], max: {...} }`);
    const { values, max, group, over } = spec as Record<string, unknown>;
    if (!Array.isArray(values) || values.length === 0)
      templateError(
        id,
        `${where}: values must list the tags of shown amounts, e.g. values: ["refund.amount"]`,
      );
    let kind: "money" | "number" | undefined;
    for (const tag of values as unknown[]) {
      const field = typeof tag === "string" ? fields.get(tag) : undefined;
      if (field === undefined)
        templateError(
          id,
          `${where}: value "${String(tag)}" is not a shown value of the template; shown: ${[...fields.keys()].join(", ")}`,
        );
      const fieldKind = field.format.kind;
      if ((fieldKind !== "money" && fieldKind !== "number") || field.format.amount === undefined)
        templateError(
          id,
          `${where}: value "${tag}" is shown as ${fieldKind}; a ceiling sums values shown with format.money or format.number`,
        );
      if (field.format.uncounted !== undefined)
        templateError(
          id,
          `${where}: value "${tag}" is shown with a number format that ${field.format.uncounted}, so the message would not show the amount the ceiling counts; use format.number with standard notation and fraction digits`,
        );
      if (kind !== undefined && kind !== fieldKind)
        templateError(
          id,
          `${where}: value "${tag}" is ${fieldKind} and an earlier one is ${kind}; sum money and numbers in separate ceilings`,
        );
      kind = fieldKind;
    }
    if (new Set(values).size !== values.length) templateError(id, `${where}: values lists a tag twice`);
    if (over !== undefined && over !== "escalate" && over !== "approval")
      templateError(id, `${where}: over must be "escalate" or "approval"`);
    if (group !== undefined && (typeof group !== "string" || !groupName.test(group)))
      templateError(id, `${where}: group must be a lower-case name such as "refunds"`);
    const maxima = new Map<string, { [W in CeilingWindow]?: number }>();
    if (typeof max !== "object" || max === null) templateError(id, `${where}: max is required`);
    if (kind === "number") maxima.set("", windowsOf(id, where, "", max, numberScale));
    else {
      const currencies = Object.entries(max as Record<string, unknown>);
      if (currencies.length === 0)
        templateError(id, `${where}: max needs a currency, e.g. max: { EUR: { message: 200, day: 10000 } }`);
      for (const [currency, windows] of currencies) {
        const digits = currencyDigits(currency);
        if (digits === undefined)
          templateError(
            id,
            `${where}: "${currency}" is not an ISO 4217 currency code; use upper-case codes such as "EUR"`,
          );
        maxima.set(currency, windowsOf(id, `${where}, ${currency}`, currency, windows, digits));
      }
    }
    ceilings.push(
      Object.freeze({
        name,
        group: (group as string | undefined) ?? `${id}.${name}`,
        kind: kind as "money" | "number",
        values: Object.freeze([...(values as string[])]),
        max: maxima,
        over: (over as "escalate" | "approval" | undefined) ?? "escalate",
      }),
    );
  }
  return Object.freeze(ceilings);
}

function windowsOf(id: string, where: string, currency: string, windows: unknown, digits: number) {
  if (typeof windows !== "object" || windows === null)
    templateError(
      id,
      `${where}: max must be { message?, hour?, day? }${currency === "" ? "" : " per currency"}`,
    );
  const out: { [W in CeilingWindow]?: number } = {};
  for (const [window, value] of Object.entries(windows as Record<string, unknown>)) {
    if (!(ceilingWindows as readonly string[]).includes(window))
      templateError(id, `${where}: "${window}" is not a window; use message, hour or day`);
    const units =
      typeof value === "number" && Number.isFinite(value) && value > 0
        ? toUnits(value, digits, 0, "down")
        : undefined;
    if (units === undefined || !units.ok || units.units < 1)
      templateError(
        id,
        `${where}: max.${window} must be a positive finite amount (at least one ${currency === "" ? "millionth" : "minor unit"})`,
      );
    out[window as CeilingWindow] = units.units;
  }
  if (Object.keys(out).length === 0) templateError(id, `${where}: give at least one of message, hour, day`);
  return Object.freeze(out);
}

/**
 * Checks that templates sharing a ceiling group declare the same maxima and kind: a group is one set
 * of windows, and two templates reading it against different bounds would each allow what the other refuses.
 */
export function checkCeilingGroups(templates: readonly { id: string; ceilings: readonly Ceiling[] }[]): void {
  const seen = new Map<string, { template: string; ceiling: Ceiling; shape: string }>();
  for (const template of templates) {
    for (const ceiling of template.ceilings ?? []) {
      const shape = JSON.stringify([ceiling.kind, [...ceiling.max].sort(([a], [b]) => (a < b ? -1 : 1))]);
      const first = seen.get(ceiling.group);
      if (first === undefined) seen.set(ceiling.group, { template: template.id, ceiling, shape });
      else if (first.shape !== shape) {
        throw new DefinitionError(
          "catalog_invalid",
          `template "${template.id}": ceiling "${ceiling.name}" shares group "${ceiling.group}" with ceiling "${first.ceiling.name}" of template "${first.template}" but declares other maxima; give both the same max (or different groups)`,
          { template: template.id },
        );
      }
    }
  }
}

/** The major-unit amount of whole units, for typed fields and details (display only, never summed). */
export function majorOf(ceiling: Ceiling, currency: string, units: number): number {
  const digits = ceiling.kind === "number" ? numberScale : (currencyDigits(currency) ?? 0);
  return units / 10 ** digits;
}

/**
 * A ceiling in words, for the people who approve a catalog (checklist, preview): its values, each
 * currency's maxima by window, its group and what happens over it.
 */
export function ceilingText(ceiling: Ceiling): string {
  const maxima = [...ceiling.max].map(([currency, windows]) => {
    const bounds = ceilingWindows.flatMap((window) => {
      const units = windows[window];
      return units === undefined
        ? []
        : [`${majorOf(ceiling, currency, units)} ${window === "hour" ? "an" : "a"} ${window}`];
    });
    return `${currency === "" ? "" : `${currency} `}${bounds.join(", ")}`;
  });
  return `${ceiling.name}: ${ceiling.values.join(" + ")} at most ${maxima.join("; ")} (group ${ceiling.group}; over it: ${ceiling.over === "approval" ? "a person approves" : "refused"})`;
}
