import type {
  AnyRecord,
  CollectionSchemas,
  RecordsDefinition,
  TicketView,
} from "../definition/define-records.js";
import { clip } from "../message/sanitize.js";

// The tickets prepareTicket made, with the records definition that validated them. Module-private: a
// marker anyone could set (a `Symbol.for` brand, a property) would let an object from outside skip
// validation and bring its own handles.
const preparedTickets = new WeakMap<object, RecordsDefinition>();

/** One collection of a prepared ticket: its records in order and their handles both ways. */
export interface PreparedCollection {
  readonly records: readonly AnyRecord[];
  readonly handles: readonly string[];
  readonly byHandle: ReadonlyMap<string, AnyRecord>;
  readonly handleOf: ReadonlyMap<AnyRecord, string>;
}

/**
 * A ticket's records after validation, with handles assigned. Prepare once per ticket and decide many
 * times: validation and hashing are the costly part of a decision.
 */
export interface PreparedTicket<S extends CollectionSchemas = CollectionSchemas> {
  readonly ticketId: string;
  readonly view: TicketView<S>;
  readonly collections: ReadonlyMap<string, PreparedCollection>;
}

/** The result of preparing a ticket: the prepared ticket, or why its records are invalid. */
export type PrepareResult<S extends CollectionSchemas = CollectionSchemas> =
  | { readonly ok: true; readonly ticket: PreparedTicket<S> }
  | { readonly ok: false; readonly problem: string };

/**
 * True for a ticket made by `catalog.prepare` in this copy of formletter; an object built elsewhere is
 * never one, whatever its shape.
 */
export function isPreparedTicket(value: unknown): value is PreparedTicket {
  return typeof value === "object" && value !== null && preparedTickets.has(value);
}

/** True for a ticket prepared against `definition`: what a catalog may decide on without validating again. */
export function isPreparedWith(value: unknown, definition: RecordsDefinition): value is PreparedTicket {
  return typeof value === "object" && value !== null && preparedTickets.get(value) === definition;
}

const maxTicketId = 200;
const maxRecordId = 200;

/**
 * Validates a loader's output against the records definition and assigns handles. Never throws:
 * anything wrong is a `problem` that names the collection, the index and the field path (never a value).
 */
export function prepareTicket<S extends CollectionSchemas>(
  definition: RecordsDefinition<S>,
  makeHandles: (collection: string, ids: readonly string[]) => string[],
  input: unknown,
): PrepareResult<S> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return fail("ticket records must be an object { ticketId, <collection>: [...] }");
  }
  const source = input as Record<string, unknown>;
  const ticketId = Object.hasOwn(source, "ticketId") ? source.ticketId : undefined;
  if (typeof ticketId !== "string" || ticketId.length === 0 || ticketId.length > maxTicketId) {
    return fail(`ticketId must be a non-empty string of at most ${maxTicketId} characters`);
  }
  for (const key of Object.keys(source)) {
    if (key !== "ticketId" && !Object.hasOwn(definition.collections, key)) {
      return fail(`"${clip(key)}" is not a declared collection; declared: ${definition.names.join(", ")}`);
    }
  }
  const view: Record<string, AnyRecord[]> = {};
  const collections = new Map<string, PreparedCollection>();
  for (const name of definition.names) {
    const raw = Object.hasOwn(source, name) ? source[name] : [];
    if (!Array.isArray(raw)) return fail(`${name} must be an array of records`);
    if (raw.length > definition.maxPerCollection) {
      return fail(`${name} holds ${raw.length} records, over the limit of ${definition.maxPerCollection}`);
    }
    const schema = definition.collections[name];
    const records: AnyRecord[] = [];
    const ids = new Set<string>();
    for (let index = 0; index < raw.length; index++) {
      let parsed: {
        success: boolean;
        data?: unknown;
        error?: { issues: readonly { path: PropertyKey[]; message: string }[] };
      };
      try {
        parsed = schema?.safeParse(raw[index]) ?? { success: false };
      } catch {
        return fail(`${name}[${index}]: the schema's own code threw`);
      }
      if (!parsed.success) {
        const issue = parsed.error?.issues[0];
        const path = issue?.path.map(String).join(".") ?? "";
        return fail(
          `${name}[${index}]${path ? `.${clip(path)}` : ""}: ${clip(issue?.message ?? "invalid record", 120)}`,
        );
      }
      const record = parsed.data as AnyRecord;
      if (record.id.length === 0 || record.id.length > maxRecordId) {
        return fail(`${name}[${index}].id must be a non-empty string of at most ${maxRecordId} characters`);
      }
      if (ids.has(record.id))
        return fail(`${name}[${index}] repeats an id already used in ${name}; ids must be unique`);
      ids.add(record.id);
      records.push(Object.freeze(record));
    }
    const handles = makeHandles(
      name,
      records.map((record) => record.id),
    );
    const byHandle = new Map<string, AnyRecord>();
    const handleOf = new Map<AnyRecord, string>();
    records.forEach((record, index) => {
      const handle = handles[index] as string;
      byHandle.set(handle, record);
      handleOf.set(record, handle);
    });
    view[name] = records;
    collections.set(name, { records, handles, byHandle, handleOf });
  }
  const ticket: PreparedTicket<S> = Object.freeze({
    ticketId,
    view: view as unknown as TicketView<S>,
    collections,
  });
  preparedTickets.set(ticket, definition as unknown as RecordsDefinition);
  return { ok: true, ticket };
}

function fail(problem: string): { ok: false; problem: string } {
  return { ok: false, problem };
}
