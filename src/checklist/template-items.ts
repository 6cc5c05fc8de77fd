import type { CandidateBasis, TemplateCapacity } from "../capacity/capacity.js";
import type { Template } from "../core/definition/template-types.js";
import { templateEffects } from "../core/definition/template-types.js";
import { type FieldRead, type FreshLabels, fieldsRead, labelProblems, labelText } from "./field-labels.js";
import type { ChecklistItem } from "./types.js";

/** The thresholds the per-template items are checked against. */
export interface TemplateThresholds {
  readonly maxPerDay: number;
  readonly maxPerTicket: number;
  readonly maxBitsPerMessage: number;
}

const bits = (value: number) => value.toFixed(2);

type ItemFields = Omit<ChecklistItem, "section" | "template">;

/**
 * The items read from one template's definition: who it goes to and how the recipient is found (and
 * `recipientChoice`: whether the model chooses it, computed with the sample), every
 * field it reads with its label, its effect and approval, its limits, its capacity and its locales.
 * Each is checked again here, whatever `defineTemplate` already refused: a template object can also come
 * from a cast, an older copy of formletter or a label added to a schema after the template was defined.
 */
export function templateItems(
  template: Template,
  capacity: TemplateCapacity | undefined,
  basis: CandidateBasis | undefined,
  labels: FreshLabels,
  thresholds: TemplateThresholds,
  recipientChoice: ItemFields,
): ChecklistItem[] {
  const item = (fields: Omit<ChecklistItem, "section" | "template">): ChecklistItem => ({
    section: "template",
    template: template.id,
    ...fields,
  });
  const reads = fieldsRead(template, labels);
  return [
    item({
      check: "delivery",
      status: "pass",
      summary: `to the ${template.audience} by ${template.channel}`,
      evidence: [template.description],
    }),
    item(recipientItem(template, reads)),
    item(recipientChoice),
    item(fieldsItem(template, reads)),
    item(effectItem(template)),
    item(limitsItem(template, thresholds)),
    item(capacityItem(capacity, basis, thresholds)),
    item(localesItem(template, labels)),
  ];
}

function describe(read: FieldRead): string {
  const label = read.labels.map(({ label }) => labelText(label));
  return `${read.slot}: ${read.use} ${read.collection}.${read.field} (${label.length > 0 ? [...new Set(label)].join("; ") : "no label"})`;
}

function localesItem(template: Template, labels: FreshLabels): ItemFields {
  const locales = template.locales;
  if (locales === undefined) return { check: "locales", status: "pass", summary: "one locale", evidence: [] };
  const { from } = locales;
  const compiled =
    from.kind === "field" ? template.resolveOrder.find((slot) => slot.name === from.slot) : undefined;
  const collection = compiled?.slot.kind === "ref" ? compiled.slot.collection : undefined;
  const source =
    from.kind === "code"
      ? "computed in code from the records"
      : `${from.slot}: ${collection ?? "?"}.${from.field}${
          collection === undefined
            ? ""
            : ` (${[...new Set(labels.of(collection, from.field).labels.map(({ label }) => labelText(label)))].join("; ") || "no label"})`
        }`;
  return {
    check: "locales",
    status: "pass",
    summary: `${locales.tags.join(", ")} (default ${locales.default}), read from the records, never the model`,
    // A locale value only picks among texts written in code: whoever wrote it chooses words, not content.
    evidence: [`locale from ${source}; anything else gets ${locales.default}`],
  };
}

function recipientItem(template: Template, reads: readonly FieldRead[]): ItemFields {
  const recipient = template.recipient;
  const slot = recipient.slot;
  const deciding = reads.filter((read) => read.decidesRecipient);
  const joins = recipient.joins.map((join) => `${join.field} = ${join.slot}.${join.otherField}`);
  const where =
    slot.kind === "ref" && slot.where !== undefined ? ["where, run without untrusted fields"] : [];
  const address = recipient.fields[0];
  const source = `${slot.kind === "ref" ? slot.collection : "?"}.${address?.field ?? "?"}${
    joins.length + where.length > 0 ? ` (${[...joins, ...where].join("; ")})` : ""
  }`;
  const untrusted = deciding.flatMap((read) =>
    read.labels.flatMap(({ path, label }) =>
      label.kind === "untrusted"
        ? [`${read.use} ${read.collection}.${read.field}: ${path} is written by "${label.author}"`]
        : [],
    ),
  );
  if (untrusted.length > 0) {
    return {
      check: "recipient",
      status: "fail",
      summary: `the recipient is chosen through a field an outsider wrote: ${source}`,
      evidence: untrusted,
    };
  }
  return {
    check: "recipient",
    status: "pass",
    summary: `from ${source}`,
    evidence: deciding.map(describe),
  };
}

function fieldsItem(template: Template, reads: readonly FieldRead[]): ItemFields {
  const problems = reads.flatMap((read) => labelProblems(read, template.audience));
  const derived = template.slots
    .filter((compiled) => compiled.slot.kind === "derived")
    .map((compiled) => `${compiled.name}: computed in code from what the ${template.audience} may read`);
  const choices = template.slots
    .filter((compiled) => compiled.slot.kind === "choice")
    .map((compiled) => `${compiled.name}: one of ${compiled.keys.size} labels written in code`);
  // The recipient's fields are listed under the recipient item; their labels are checked here too.
  const listed = reads.filter((read) => !read.decidesRecipient).map(describe);
  const evidence = [...listed, ...derived, ...choices];
  if (problems.length > 0) {
    return {
      check: "fields",
      status: "fail",
      summary: `a label problem: ${counted(problems.length, "field")} the ${template.audience} may not see`,
      evidence: [...problems, ...evidence],
    };
  }
  // The summary counts each kind of line listed below it, so the numbers add up to the list; the
  // recipient's reads are counted apart, as they are listed under the recipient item.
  const recipientReads = reads.length - listed.length;
  const parts = [
    `${counted(listed.length, "field read")}, each one the ${template.audience} may see`,
    ...(derived.length > 0 ? [counted(derived.length, "computed slot")] : []),
    ...(choices.length > 0 ? [counted(choices.length, "choice slot")] : []),
  ];
  const apart =
    recipientReads > 0
      ? ` (the recipient's ${counted(recipientReads, "read")} are listed under recipient)`
      : "";
  return { check: "fields", status: "pass", summary: `${parts.join("; ")}${apart}`, evidence };
}

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function effectItem(template: Template): ItemFields {
  const effect = template.effect as unknown;
  const approval = template.approval === "human" ? 'approval "human"' : "no approval";
  if (!templateEffects.includes(effect as Template["effect"])) {
    return {
      check: "effect",
      status: "fail",
      summary: `no effect declared (${String(effect)}): say whether a message is informational, reversible or irreversible`,
      evidence: [approval],
    };
  }
  if (effect === "irreversible" && template.approval !== "human") {
    return {
      check: "effect",
      status: "fail",
      summary:
        'irreversible without approval: a message that cannot be taken back goes out as the model decided; add approval: "human"',
      evidence: [approval],
    };
  }
  return { check: "effect", status: "pass", summary: `${String(effect)}, ${approval}`, evidence: [] };
}

function limitsItem(template: Template, thresholds: TemplateThresholds): ItemFields {
  const { perTicket, perDay } = template.limits;
  const summary = `${perTicket} per ticket, ${perDay} per day`;
  const problems = [
    ...(!(perDay <= thresholds.maxPerDay)
      ? [
          `perDay ${perDay} is above ${thresholds.maxPerDay}: a limit that high bounds nothing a person would notice`,
        ]
      : []),
    ...(!(perTicket <= thresholds.maxPerTicket)
      ? [`perTicket ${perTicket} is above ${thresholds.maxPerTicket}: that many tries on one recipient`]
      : []),
  ];
  return problems.length > 0
    ? { check: "limits", status: "fail", summary: `unlimited-looking limits: ${summary}`, evidence: problems }
    : {
        check: "limits",
        status: "pass",
        summary,
        evidence: [`thresholds: ${thresholds.maxPerTicket} per ticket, ${thresholds.maxPerDay} per day`],
      };
}

function capacityItem(
  capacity: TemplateCapacity | undefined,
  basis: CandidateBasis | undefined,
  thresholds: TemplateThresholds,
): ItemFields {
  if (capacity === undefined) {
    return { check: "capacity", status: "fail", summary: "capacity could not be computed", evidence: [] };
  }
  const summary = `${bits(capacity.bitsPerMessage)} bits a message, ${bits(capacity.perDay.bits)} a day`;
  const slots = capacity.slots
    .filter((slot) => slot.kind !== "derived")
    .map((slot) => `${slot.slot}: ${slot.candidates} from ${slot.from} = ${bits(slot.bits)} bits`);
  const evidence = [
    basis?.kind === "assumed"
      ? `no sample: ${basis.recordsPerCollection} records assumed per ref slot (the most a ticket may hold); pass a sample ticket to count real ones`
      : "candidates counted on the sample ticket",
    `template choice ${bits(capacity.templateBits)} bits; ${slots.join("; ")}`,
    ...(capacity.sample?.enumerated === true
      ? [
          `on the sample: ${capacity.sample.messages} distinct message${capacity.sample.messages === 1 ? "" : "s"} = ${bits(capacity.sample.bits)} bits`,
        ]
      : []),
  ];
  if (!(capacity.bitsPerMessage <= thresholds.maxBitsPerMessage)) {
    return {
      check: "capacity",
      status: "fail",
      summary: `${summary}: above ${thresholds.maxBitsPerMessage} bits a message`,
      evidence,
    };
  }
  return { check: "capacity", status: "pass", summary, evidence };
}
