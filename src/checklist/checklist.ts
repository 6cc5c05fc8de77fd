import { type CatalogCapacity, catalogCapacity } from "../capacity/capacity.js";
import type { Catalog } from "../core/decision/catalog.js";
import type { PreparedTicket } from "../core/decision/ticket.js";
import type { CollectionSchemas } from "../core/definition/define-records.js";
import type { Template } from "../core/definition/template-types.js";
import { clip } from "../core/message/sanitize.js";
import { controlItems } from "./controls.js";
import { FreshLabels } from "./field-labels.js";
import { hostileOutputsItem } from "./hostile-outputs.js";
import { injectionItem } from "./injection.js";
import { propertiesItem } from "./properties.js";
import { recipientChoiceItem } from "./recipient-choice.js";
import { type SampleOutcomes, sampleOutcomes, spreadProposals } from "./sample-proposals.js";
import { sendsItem } from "./sends.js";
import { templateItems } from "./template-items.js";
import type { Checklist, ChecklistItem, ChecklistOptions } from "./types.js";

/** The default thresholds, each justified where {@link ChecklistOptions} declares it. */
export const checklistDefaults = {
  maxPerDay: 10_000,
  maxPerTicket: 10,
  maxBitsPerMessage: 20,
  propertyRuns: 500,
  seed: 1,
  injectionProposals: 6,
} as const;

/**
 * A pre-launch checklist computed from the catalog itself and a sample ticket: per template, where its
 * recipient comes from, every field it reads with its label, its effect and approval, limits, capacity,
 * locales and controls; then, live on the sample, the hostile-output fuzz, an injection corpus through
 * the records and `checkCatalog`'s properties. Pure: it sends nothing, stores nothing and prints nothing;
 * bad input (a catalog object that is not what it says, an invalid sample) ends as ✗ items, not a throw.
 *
 * @example
 * import { buildChecklist } from "formletter/testing";
 * const { items, ok } = buildChecklist(catalog, { sample: ticketRecords });
 * if (!ok) console.log(items.filter((item) => item.status === "fail"));
 */
export function buildChecklist<S extends CollectionSchemas>(
  typed: Catalog<S>,
  options: ChecklistOptions = {},
): Checklist {
  // Read through the general type: the checks look at templates and records whatever their collections.
  const catalog = typed as unknown as Catalog;
  const settings = { ...checklistDefaults, ...definedOnly(options) };
  const labels = new FreshLabels(catalog.records);
  const prepared = options.sample === undefined ? undefined : catalog.prepare(options.sample);
  const ticket = prepared?.ok === true ? prepared.ticket : undefined;
  let capacity: CatalogCapacity | undefined;
  try {
    capacity = catalogCapacity(catalog, ticket === undefined ? {} : { sample: ticket });
  } catch {
    capacity = undefined;
  }
  // Every proposal of every template decided once on the sample, for the checks that read what it does.
  const outcomes = catalog.templates.map((template) =>
    ticket === undefined ? undefined : guardedOutcomes(catalog, ticket, template),
  );
  const items: ChecklistItem[] = [];
  for (const [index, template] of catalog.templates.entries()) {
    const decided = outcomes[index];
    const choice = recipientChoiceItem(
      template,
      decided instanceof Error ? undefined : decided,
      ticket,
      catalog.records.maxPerCollection,
    );
    items.push(
      ...templateItems(template, capacity?.templates[index], capacity?.basis, labels, settings, choice),
      ...controlItems(template),
    );
  }
  if (ticket === undefined) {
    const problem =
      prepared === undefined
        ? "no sample ticket: pass --records"
        : `the sample ticket's records are invalid: ${clip(prepared.ok ? "" : prepared.problem, 200)}`;
    for (const check of ["sample", "hostile_outputs", "injection", "properties"] as const) {
      items.push({
        section: "live",
        template: undefined,
        check,
        status: "fail",
        summary: check === "sample" ? problem : "not run: no valid sample ticket",
        evidence: [],
      });
    }
  } else {
    const counts = [...ticket.collections].map(
      ([name, collection]) => `${name} ${collection.records.length}`,
    );
    items.push(
      {
        section: "live",
        template: undefined,
        check: "sample",
        status: "pass",
        summary: `valid: ${counts.join(", ")}`,
        evidence: [],
      },
      ...catalog.templates.map((template, index) => {
        const decided = outcomes[index];
        return decided instanceof Error
          ? threw("sends", decided, template.id)
          : sendsItem(decided ?? emptyOutcomes(template));
      }),
      guarded("hostile_outputs", () => hostileOutputsItem(catalog, ticket)),
      guarded("injection", () =>
        injectionItem(
          catalog,
          options.sample,
          labels,
          outcomes.flatMap((decided) =>
            decided === undefined || decided instanceof Error
              ? []
              : [
                  {
                    template: decided.template,
                    proposals: spreadProposals(decided, settings.injectionProposals),
                  },
                ],
          ),
        ),
      ),
      guarded("properties", () =>
        propertiesItem(catalog, options.sample, settings.propertyRuns, settings.seed),
      ),
    );
  }
  return { items, ok: items.every((item) => item.status !== "fail") };
}

/** A live check that threw (a catalog object whose decide throws) is a ✗ with the error, not a crash. */
function guarded(check: ChecklistItem["check"], run: () => ChecklistItem): ChecklistItem {
  try {
    return run();
  } catch (error) {
    return threw(check, error, undefined);
  }
}

function threw(check: ChecklistItem["check"], error: unknown, template: string | undefined): ChecklistItem {
  return {
    section: "live",
    template,
    check,
    status: "fail",
    summary: `the check threw: ${clip(error instanceof Error ? error.message : String(error), 120)}`,
    evidence: [],
  };
}

/** A template's proposals decided on the sample, or what decide threw while they were. */
function guardedOutcomes(
  catalog: Catalog,
  ticket: PreparedTicket,
  template: Template,
): SampleOutcomes | Error {
  try {
    return sampleOutcomes(catalog, ticket, template);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function emptyOutcomes(template: Template): SampleOutcomes {
  return { template, possible: 0, tried: 0, sending: [], escalations: [] };
}

function definedOnly(options: ChecklistOptions): Partial<typeof checklistDefaults> {
  const given: Record<string, number> = {};
  for (const name of Object.keys(checklistDefaults)) {
    const value = (options as Record<string, unknown>)[name];
    if (typeof value === "number") given[name] = value;
  }
  return given;
}
