import { fieldExposure } from "../capacity/exposure.js";
import { labelText } from "../cli/preview-template.js";
import type { QueueItemDetail } from "../outbox/index.js";
import type { AuditEvent } from "../store/index.js";
import type { WorkspaceSource } from "./source.js";

/** One slot of the decision behind an item: what was chosen, where its value came from, and its label. */
export interface SlotRow {
  readonly slot: string;
  readonly kind: string;
  /** The handle or key the model gave (or the one candidate taken for it). */
  readonly chosen: string | undefined;
  /** "orders o-3f2a: record 4471 (order 4471-2290, delivered 2 Mar)"; undefined when not known. */
  readonly source: string | undefined;
  readonly field: string | undefined;
  /** The value as rendered into the draft. */
  readonly value: string | undefined;
  readonly label: string | undefined;
}

/** Everything the item page shows, read from the queue item, its audit events and (with an outbox) the catalog. */
export interface ItemModel {
  readonly item: QueueItemDetail;
  /** The proposal as the outbox parsed it, and the tags the decision carried. */
  readonly proposal: unknown;
  readonly tags: Readonly<Record<string, string>>;
  readonly slots: readonly SlotRow[];
  /** Where the records behind the slots could not be read now, why (a loader's problem). */
  readonly recordsProblem: string | undefined;
  /** The queue events of this item: who did what, when. */
  readonly history: readonly AuditEvent[];
}

const strings = (value: unknown): Readonly<Record<string, string>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.fromEntries(
        Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
      )
    : {};

/** The item page's model, or undefined for an id that names no item. */
export async function itemModel(source: WorkspaceSource, id: string): Promise<ItemModel | undefined> {
  const item = await source.queue.get(id);
  if (item === undefined) return undefined;
  let decision: AuditEvent | undefined;
  const history: AuditEvent[] = [];
  for await (const event of source.audit.query({ ticketId: item.ticketId, since: item.createdAt })) {
    if (event.id === item.auditId) decision = event;
    else if (event.type === "queue" && event.data.item === item.id) history.push(event);
  }
  const choices = strings(decision?.data.choices);
  const values = strings(decision?.data.values);
  const { slots, problem } = await slotRows(source, item, choices, values);
  return {
    item,
    proposal: decision?.data.proposal,
    tags: strings(decision?.data.tags),
    slots,
    recordsProblem: problem,
    history,
  };
}

/** Each slot's row: from the catalog's template when the process has one, else from the audit log alone. */
async function slotRows(
  source: WorkspaceSource,
  item: QueueItemDetail,
  choices: Readonly<Record<string, string>>,
  values: Readonly<Record<string, string>>,
): Promise<{ slots: SlotRow[]; problem: string | undefined }> {
  const template = source.catalog?.templates.find((candidate) => candidate.id === item.template);
  if (template === undefined || source.catalog === undefined) {
    const names = new Set([...Object.keys(choices), ...Object.keys(values)]);
    return {
      slots: [...names].map((slot) => ({
        slot,
        kind: slot in choices ? "chosen" : "value",
        chosen: choices[slot],
        source: undefined,
        field: undefined,
        value: values[slot],
        label: undefined,
      })),
      problem: undefined,
    };
  }
  let problem: string | undefined;
  let entries: readonly { collection: string; id: string; handle: string; label: string }[] = [];
  if (source.records !== undefined) {
    const loaded = await source.records(item.ticketId);
    if (loaded.ok) {
      try {
        entries = source.catalog.handles(loaded.records).entries;
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
    } else problem = loaded.problem;
  }
  const exposure = fieldExposure(template);
  const rows: SlotRow[] = [];
  for (const compiled of template.resolveOrder) {
    const { slot } = compiled;
    const chosen = choices[compiled.name];
    const entry =
      slot.kind === "ref" && chosen !== undefined
        ? entries.find(
            (candidate) =>
              candidate.collection === slot.collection && candidate.handle === chosen.toLowerCase(),
          )
        : undefined;
    const sourceText =
      slot.kind === "ref"
        ? `${slot.collection}${entry === undefined ? "" : ` record ${entry.id} (${entry.label})`}`
        : slot.kind === "derived"
          ? "computed in code"
          : "a key of a list written in code";
    if (slot.kind === "choice") {
      rows.push({
        slot: compiled.name,
        kind: "choice",
        chosen,
        source: sourceText,
        field: undefined,
        value: values[compiled.name],
        label: "written in code",
      });
      continue;
    }
    for (const field of compiled.fields) {
      const exposed = exposure.find(
        (candidate) => candidate.slot === compiled.name && candidate.field === field.field,
      );
      rows.push({
        slot: compiled.name,
        kind: slot.kind,
        chosen,
        source: sourceText,
        field: field.field,
        value: values[field.tag],
        label: exposed === undefined ? undefined : labelText(exposed),
      });
    }
  }
  return { slots: rows, problem };
}
