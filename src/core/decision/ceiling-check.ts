import { type Ceiling, type CeilingWindow, majorOf, type Spend } from "../definition/ceilings.js";
import type { AnyRecord } from "../definition/define-records.js";
import type { Template } from "../definition/template-types.js";
import { fieldsRead } from "../message/format.js";
import type { CeilingExceeded } from "./decision.js";

/** A ceiling gone over, with what its `over` says to do. */
export interface CeilingTrip {
  readonly exceeded: CeilingExceeded;
  /** `refuse`: limit_exceeded, whatever `over` says (a currency the ceiling does not list). */
  readonly action: "refuse" | "approval";
  readonly detail: string;
}

/** What a message adds to its template's ceilings, and the first one its own amount goes over. */
export type Measured =
  | { readonly spend: readonly Spend[]; readonly trip: CeilingTrip | undefined }
  | { readonly rejected: { readonly slot: string; readonly field: string; readonly detail: string } };

/**
 * Sums, per ceiling and currency, the values a message shows, in whole units (never floats), and checks
 * the per-message maxima and the listed currencies. A value that cannot be summed exactly (negative,
 * not finite, too large) is rejected, never skipped: an amount a ceiling cannot count is not sent.
 */
export function measureCeilings(template: Template, earlier: Readonly<Record<string, unknown>>): Measured {
  const spend: Spend[] = [];
  let approval: CeilingTrip | undefined;
  for (const ceiling of template.ceilings) {
    const sums = new Map<string, number>();
    for (const tag of ceiling.values) {
      const slot = template.slots.find((candidate) => candidate.fields.some((field) => field.tag === tag));
      const field = slot?.fields.find((candidate) => candidate.tag === tag);
      if (slot === undefined || field?.format.amount === undefined) continue;
      const value = earlier[slot.name];
      const record = (slot.slot.kind === "ref" ? value : { [slot.name]: value }) as AnyRecord | undefined;
      const raw =
        record !== undefined && Object.hasOwn(record, field.field) ? record[field.field] : undefined;
      const amount = field.format.amount(raw, record === undefined ? {} : fieldsRead(record, field.reads));
      const units = amount.ok ? (sums.get(amount.currency ?? "") ?? 0) + amount.units : undefined;
      if (!amount.ok || units === undefined || !Number.isSafeInteger(units)) {
        return {
          rejected: {
            slot: slot.name,
            field: field.field,
            detail: `ceiling "${ceiling.name}" of ${template.id} cannot sum value "${tag}": the value ${amount.ok ? "is too large to sum exactly" : amount.problem}`,
          },
        };
      }
      sums.set(amount.currency ?? "", units);
    }
    for (const [currency, units] of sums) {
      spend.push({ ceiling: ceiling.name, group: ceiling.group, currency, units });
      const max = ceiling.max.get(currency);
      if (max === undefined) {
        return {
          spend,
          trip: {
            exceeded: exceeded(ceiling, "message", currency, 0, 0, units),
            action: "refuse",
            detail: `ceiling "${ceiling.name}" of ${template.id} lists no maximum for ${currency}; amounts in other currencies are refused`,
          },
        };
      }
      if (max.message !== undefined && units > max.message && approval === undefined) {
        const trip = tripOf(template, ceiling, "message", currency, max.message, 0, units);
        if (trip.action === "refuse") return { spend, trip };
        approval = trip;
      }
    }
  }
  return { spend, trip: approval };
}

/** The trip of a window: `max` and `spent` and `units` are whole units. */
export function tripOf(
  template: Template,
  ceiling: Ceiling,
  window: CeilingWindow,
  currency: string,
  max: number,
  spent: number,
  units: number,
): CeilingTrip {
  const money = (n: number) => `${currency === "" ? "" : `${currency} `}${majorOf(ceiling, currency, n)}`;
  const span = window === "message" ? "per message" : `in a rolling ${window}`;
  return {
    exceeded: exceeded(ceiling, window, currency, max, spent, units),
    action: ceiling.over === "approval" ? "approval" : "refuse",
    detail:
      `ceiling "${ceiling.name}" of ${template.id} allows ${money(max)} ${span}; ` +
      `${window === "message" ? "" : `${money(spent)} counted already, `}this message adds ${money(units)}`,
  };
}

function exceeded(
  ceiling: Ceiling,
  window: CeilingWindow,
  currency: string,
  max: number,
  spent: number,
  units: number,
): CeilingExceeded {
  return {
    limit: "ceiling",
    ceiling: ceiling.name,
    group: ceiling.group,
    window,
    ...(currency === "" ? {} : { currency }),
    max: majorOf(ceiling, currency, max),
    spent: majorOf(ceiling, currency, spent),
    amount: majorOf(ceiling, currency, units),
  };
}
