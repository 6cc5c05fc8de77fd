import { parsePhone } from "../core/message/phone.js";
import { amountOfText } from "./amount-text.js";

/**
 * What most values of one `collection.field` of the history's records hold; "amount" is an amount kept as
 * a string ("49.90", as decimal columns are often exported).
 */
export type FieldKind = "date" | "timestamp" | "phone" | "currency" | "amount";

/** A field of the records whose values are mostly of one kind. */
export interface ProfiledField {
  readonly collection: string;
  readonly field: string;
  readonly kind: FieldKind;
  /** Values of the field read (strings and numbers; a sample past the first 2,000), and the share of them of `kind`. */
  readonly values: number;
  readonly share: number;
  /** Timestamps: some were written without a UTC offset, so they name an instant only in a zone. */
  readonly offsetLess: boolean;
  /**
   * Timestamps: every one was written at the same time of day (midnight, or a fixed hour a system writes),
   * on the day it falls on in UTC: the time says nothing and the field is read as a date. Left out otherwise.
   */
  readonly fixedTime?: true;
  /** Phones: the countries of the numbers written with a `+`, most frequent first. */
  readonly countries: readonly { readonly country: string; readonly count: number }[];
}

/**
 * A key the records share: in nearly every ticket holding both, each `from` value equals the `to` field
 * of a record of the same ticket, and no two records of that ticket share that `to` value.
 */
export interface SharedKey {
  readonly from: { readonly collection: string; readonly field: string };
  readonly to: { readonly collection: string; readonly field: string };
  /** Tickets holding values of both fields (counted from the first ticket where they met). */
  readonly tickets: number;
  /** Of those, the tickets where every `from` value was found among the `to` values. */
  readonly holds: number;
  /** Of those, the tickets where the `to` values were unique. */
  readonly unique: number;
}

/** What {@link RecordProfile} learnt of the history's records: a summary, plain data. */
export interface RecordProfileSummary {
  /** Tickets observed (past the first 2,000, one in 8 is read). */
  readonly tickets: number;
  readonly fields: readonly ProfiledField[];
  readonly keys: readonly SharedKey[];
  /**
   * Fields whose values repeat between records of one ticket (several contacts of one garage share its
   * `garageId`): a join on one of them leaves more than one record to choose from.
   */
  readonly repeating: readonly { readonly collection: string; readonly field: string }[];
}

/** Options of {@link RecordProfile}. */
export interface RecordProfileOptions {
  /** Collections to observe (the records definition's names); others are ignored. @default all */
  readonly collections?: readonly string[];
}

// Bounds: memory follows the records' shape (collections and fields), never the lines.
const maxFields = 512;
const maxPairs = 4096;
const maxRecords = 500;
const maxFieldsPerRecord = 64;
const maxPhonesParsed = 500;
const maxDistinct = 4;
/** A field is of a kind when this share of its values are. */
const kindShare = 0.9;
/** A key holds in this share of the tickets holding both fields, with a unique target in this share. */
const keyHolds = 0.9;
const keyUnique = 0.95;
const keySupport = 3;
/** Timestamps read before one time of day in all of them says the field holds days. */
const fixedTimeSupport = 10;
/** A pair failing this often after this many tickets is a coincidence: it stops being checked. */
const deadAfter = 20;
const deadBelow = 0.5;
/**
 * Past this many tickets, one ticket in `sampleEvery` is read (and past this many values of a field, one
 * value in `sampleEvery`): shares and keys are settled long before, and a long history costs little more.
 */
const sampleAfter = 2000;
const sampleEvery = 8;

const isoDay = /^\d{4}-\d{2}-\d{2}$/;
const isoTime = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;
const phoneShape = /^\+?[\d ()./-]{6,24}$/;
const currencyShape = /^[A-Z]{3}$/;
/** "04.03.2026", "3/4/26": digits a phone number could hold too, but written as a day. */
const writtenDate = /^(?:\d{1,2}[./-]\d{1,2}[./-](?:\d{2}|\d{4})|\d{4}[./-]\d{1,2}[./-]\d{1,2})$/;

interface FieldStats {
  /** Values seen; `values` counts those read (all up to `sampleAfter`, then a sample). */
  seen: number;
  values: number;
  numbers: number;
  dates: number;
  timestamps: number;
  offsetLess: number;
  /** The time of day of the first timestamp as written, and whether another one differed. */
  clock: string | undefined;
  clockVaries: boolean;
  /** A timestamp with an offset fell on another day in UTC than the day written (or was not read). */
  dayShifts: boolean;
  phones: number;
  /** Phone-shaped values written as only phone numbers are: with a `+`, `00`, a trunk `0` or `(`. */
  dialled: number;
  currencies: number;
  /** Strings holding a decimal amount with places ("49.90"). */
  amounts: number;
  parsed: number;
  countries: Map<string, number>;
  /** Tickets holding two or more of its key-shaped values, and of those the ones where a value repeated. */
  several: number;
  repeated: number;
  /** Integers under 1,000 read as key values: such a field joins only on a record's `id` (see `isKey`). */
  smallKeys: number;
}

interface PairStats {
  readonly from: string;
  readonly to: string;
  tickets: number;
  holds: number;
  unique: number;
  dead: boolean;
  /** A few distinct joined values: a field holding one constant is no key. */
  readonly distinct: Set<KeyValue>;
}

/**
 * A value a key may hold, as a join compares it: a number as its decimal string, so `ownerId: 4242` meets
 * `id: "4242"` as `match` joins them (`sameKey`), and nothing nearer (" 4242", "04242") does.
 */
type KeyValue = string;

/**
 * Learns, while the history streams, which fields of the records hold dates, timestamps, phone numbers
 * (with their countries) and currency codes, and which keys the records share (`vehicles.garageId` →
 * `garages.id`): a field pair whose values meet in nearly every ticket holding both, on a target unique
 * within the ticket. Equal values by coincidence (a constant, a boolean, a value only some tickets share)
 * do not make a key. Counts are kept per `collection.field` and field pair, never per line.
 *
 * @example
 * import { RecordProfile } from "formletter/mine";
 * const profile = new RecordProfile({ collections: records.names });
 * for (const line of lines) profile.observe(line.records);
 * profile.summary().keys; // [{ from: { collection: "vehicles", field: "garageId" }, to: { collection: "garages", field: "id" }, ... }]
 */
export class RecordProfile {
  readonly #collections: ReadonlySet<string> | undefined;
  readonly #fields = new Map<string, FieldStats>();
  readonly #keys = new Map<string, Map<string, string>>();
  #keyCount = 0;
  readonly #pairs = new Map<string, PairStats>();
  /** The `to` fields each `from` field is paired with already, and each field's collection: read per ticket. */
  readonly #pairedTo = new Map<string, Set<string>>();
  readonly #collectionOf = new Map<string, string>();
  /** Live pairs by their `from` field: a ticket only checks the pairs of fields it holds. */
  readonly #bySource = new Map<string, PairStats[]>();
  #tickets = 0;

  constructor(options: RecordProfileOptions = {}) {
    this.#collections = options.collections === undefined ? undefined : new Set(options.collections);
  }

  /**
   * Whether the next ticket observed is read: all up to the 2,000th, then one in 8. A caller whose records
   * cost something to get (parsed again from their line) may hand `{}` for a ticket that is not read.
   */
  get readsNext(): boolean {
    const ticket = this.#tickets + 1;
    return ticket <= sampleAfter || ticket % sampleEvery === 0;
  }

  /** Observes one ticket's records (`{ vehicles: [...], garages: [...] }`); any other shape is skipped. */
  observe(records: unknown): void {
    if (typeof records !== "object" || records === null || Array.isArray(records)) return;
    const read = this.readsNext;
    this.#tickets += 1;
    if (!read) return;
    const values = new Map<string, KeyValue[]>();
    for (const collection of Object.keys(records)) {
      if (this.#collections !== undefined && !this.#collections.has(collection)) continue;
      const list = (records as Record<string, unknown>)[collection];
      if (!Array.isArray(list)) continue;
      for (const record of list.slice(0, maxRecords)) {
        if (typeof record !== "object" || record === null || Array.isArray(record)) continue;
        for (const field of Object.keys(record).slice(0, maxFieldsPerRecord)) {
          const value = (record as Record<string, unknown>)[field];
          const key = this.#keyOf(collection, field);
          if (key === undefined) continue;
          this.#observeValue(key, value);
          const keyed = keyValueOf(value);
          if (keyed !== undefined) {
            if (typeof value === "number" && Math.abs(value) < smallKey) this.#smallKey(key);
            const seen = values.get(key);
            if (seen === undefined) values.set(key, [keyed]);
            else seen.push(keyed);
          }
        }
      }
    }
    for (const [key, list] of values) {
      const stats = this.#fields.get(key);
      if (stats === undefined || list.length < 2) continue;
      stats.several += 1;
      if (new Set(list).size < list.length) stats.repeated += 1;
    }
    this.#trackNewPairs(values);
    this.#checkPairs(values);
  }

  /** What was learnt so far. */
  summary(): RecordProfileSummary {
    const fields: ProfiledField[] = [];
    for (const [key, stats] of this.#fields) {
      const kind = kindOf(stats);
      if (kind === undefined) continue;
      const [collection, field] = split(key);
      fields.push({
        collection,
        field,
        kind: kind.kind,
        values: stats.values,
        share: kind.share,
        offsetLess: kind.kind === "timestamp" && stats.offsetLess > 0,
        ...(kind.kind === "timestamp" &&
        stats.timestamps >= fixedTimeSupport &&
        stats.clock !== undefined &&
        !stats.clockVaries &&
        !stats.dayShifts
          ? { fixedTime: true as const }
          : {}),
        countries: [...stats.countries]
          .map(([country, count]) => ({ country, count }))
          .sort((a, b) => b.count - a.count || (a.country < b.country ? -1 : 1)),
      });
    }
    const keys: SharedKey[] = [];
    const seen = new Set<string>();
    // Dates, times, currency codes and amounts (numbers beside a currency, decimal strings) are values two
    // records hold alike (a payout of the claimed amount), not references between them.
    const valued = new Set(
      fields.filter((field) => field.kind !== "phone").map((field) => `${field.collection}.${field.field}`),
    );
    const priced = new Set(
      fields.filter((field) => field.kind === "currency").map((field) => field.collection),
    );
    const amounts = new Set<string>();
    for (const [key, stats] of this.#fields) {
      if (priced.has(split(key)[0]) && stats.values > 0 && stats.numbers >= kindShare * stats.values)
        amounts.add(key);
    }
    // A number that is another record's `id` (a string, as every collection declares it) is a reference
    // to it written as a number (`invoices.shipmentId: 120000` → `shipments.id: "120000"`), even beside
    // a currency: no amount is a record's identity.
    const amount = (field: string, other: string) => amounts.has(field) && split(other)[1] !== "id";
    const small = (field: string) => (this.#fields.get(field)?.smallKeys ?? 0) > 0;
    const ranked = [...this.#pairs.values()]
      .filter(
        (pair) =>
          isKey(pair, small(pair.from) || small(pair.to)) &&
          !valued.has(pair.from) &&
          !valued.has(pair.to) &&
          !amount(pair.from, pair.to) &&
          !amount(pair.to, pair.from),
      )
      .sort(byStrength);
    for (const pair of ranked) {
      // A key and its reverse say the same equality: the stronger direction is kept.
      const unordered = [pair.from, pair.to].sort().join(" ");
      if (seen.has(unordered)) continue;
      seen.add(unordered);
      const [fromCollection, fromField] = split(pair.from);
      const [toCollection, toField] = split(pair.to);
      keys.push({
        from: { collection: fromCollection, field: fromField },
        to: { collection: toCollection, field: toField },
        tickets: pair.tickets,
        holds: pair.holds,
        unique: pair.unique,
      });
    }
    fields.sort((a, b) => (a.collection + a.field < b.collection + b.field ? -1 : 1));
    const repeating = [...this.#fields]
      .filter(([, stats]) => stats.repeated > (1 - keyUnique) * stats.several)
      .map(([key]) => {
        const [collection, field] = split(key);
        return { collection, field };
      })
      .sort((a, b) => (a.collection + a.field < b.collection + b.field ? -1 : 1));
    return { tickets: this.#tickets, fields, keys, repeating };
  }

  /** Counts a small integer a field held as a key value. */
  #smallKey(key: string): void {
    const stats = this.#fields.get(key);
    if (stats !== undefined) stats.smallKeys += 1;
  }

  /** "collection.field", made once per field; undefined past the bound on fields. */
  #keyOf(collection: string, field: string): string | undefined {
    let fields = this.#keys.get(collection);
    const key = fields?.get(field);
    if (key !== undefined || this.#keyCount >= maxFields) return key;
    if (fields === undefined) {
      fields = new Map();
      this.#keys.set(collection, fields);
    }
    this.#keyCount += 1;
    const made = `${collection}.${field}`;
    fields.set(field, made);
    return made;
  }

  #observeValue(key: string, value: unknown): void {
    if (typeof value !== "string" && typeof value !== "number") return;
    let stats = this.#fields.get(key);
    if (stats === undefined) {
      stats = {
        seen: 0,
        values: 0,
        numbers: 0,
        dates: 0,
        timestamps: 0,
        offsetLess: 0,
        clock: undefined,
        clockVaries: false,
        dayShifts: false,
        phones: 0,
        dialled: 0,
        currencies: 0,
        amounts: 0,
        parsed: 0,
        countries: new Map(),
        several: 0,
        repeated: 0,
        smallKeys: 0,
      };
      this.#fields.set(key, stats);
    }
    stats.seen += 1;
    if (stats.seen > sampleAfter && stats.seen % sampleEvery !== 0) return;
    stats.values += 1;
    if (typeof value === "number") stats.numbers += 1;
    if (typeof value !== "string" || value.length > 64) return;
    if (isoDay.test(value)) stats.dates += 1;
    else {
      const time = isoTime.exec(value);
      if (time !== null) {
        stats.timestamps += 1;
        if (time[1] === undefined) stats.offsetLess += 1;
        if (!stats.clockVaries) observeClock(stats, value, time[1]);
      } else if (currencyShape.test(value)) stats.currencies += 1;
      else if (amountOfText(value) !== undefined) stats.amounts += 1;
      else if (isPhoneShaped(value)) {
        stats.phones += 1;
        if (/^[+0(]/.test(value)) stats.dialled += 1;
        // Parsing is the costly part: a sample of each field's numbers is enough to name its countries.
        if (value.startsWith("+") && stats.parsed < maxPhonesParsed) {
          stats.parsed += 1;
          const parsed = parsePhone(value, undefined);
          if (parsed.ok && parsed.country !== undefined)
            stats.countries.set(parsed.country, (stats.countries.get(parsed.country) ?? 0) + 1);
        }
      }
    }
  }

  /** Starts checking each field pair of different collections that share a value in this ticket. */
  #trackNewPairs(values: ReadonlyMap<string, readonly KeyValue[]>): void {
    if (this.#pairs.size >= maxPairs) return;
    // The fields holding each value, in the order values were first seen: one field alone as itself,
    // so the many values only one field holds make no set.
    const holders = new Map<KeyValue, string | Set<string>>();
    for (const [field, list] of values) {
      for (const value of list) {
        const held = holders.get(value);
        if (held === undefined) holders.set(value, field);
        else if (typeof held !== "string") held.add(field);
        else if (held !== field) holders.set(value, new Set([held, field]));
      }
    }
    for (const fields of holders.values()) {
      if (typeof fields === "string") continue;
      for (const from of fields) {
        let paired = this.#pairedTo.get(from);
        for (const to of fields) {
          if (paired?.has(to) === true || this.#collection(from) === this.#collection(to)) continue;
          const id = `${from}\u0000${to}`;
          if (this.#pairs.has(id)) continue;
          if (this.#pairs.size >= maxPairs) return;
          const pair: PairStats = {
            from,
            to,
            tickets: 0,
            holds: 0,
            unique: 0,
            dead: false,
            distinct: new Set(),
          };
          this.#pairs.set(id, pair);
          if (paired === undefined) {
            paired = new Set();
            this.#pairedTo.set(from, paired);
          }
          paired.add(to);
          const list = this.#bySource.get(from);
          if (list === undefined) this.#bySource.set(from, [pair]);
          else list.push(pair);
        }
      }
    }
  }

  /** The collection of a "collection.field" key. */
  #collection(key: string): string {
    let collection = this.#collectionOf.get(key);
    if (collection === undefined) {
      collection = split(key)[0];
      this.#collectionOf.set(key, collection);
    }
    return collection;
  }

  #checkPairs(values: ReadonlyMap<string, readonly KeyValue[]>): void {
    for (const [from, fromValues] of values) {
      const pairs = this.#bySource.get(from);
      if (pairs === undefined) continue;
      for (const pair of pairs) {
        if (pair.dead) continue;
        const toValues = values.get(pair.to);
        if (toValues === undefined) continue;
        pair.tickets += 1;
        const targets = new Set(toValues);
        if (targets.size === toValues.length) pair.unique += 1;
        if (fromValues.every((value) => targets.has(value))) {
          pair.holds += 1;
          if (pair.distinct.size < maxDistinct) pair.distinct.add(fromValues[0] as KeyValue);
        }
        if (pair.tickets >= deadAfter && pair.holds < deadBelow * pair.tickets) pair.dead = true;
      }
      // Dead pairs are dropped from the per-ticket walk; their counts stay, so they are never re-tracked.
      if (pairs.some((pair) => pair.dead)) {
        this.#bySource.set(
          from,
          pairs.filter((pair) => !pair.dead),
        );
      }
    }
  }
}

/**
 * Integers below this are small: counts, quantities and flags written as 0/1 agree by chance, so a field
 * holding them joins only on a record's own `id` (see {@link isKey}).
 */
const smallKey = 1000;

/**
 * A value that can be a key, as a join compares it: a string of up to 200 characters as itself, or an
 * integer as its decimal string (the string of the same key elsewhere); never a boolean, a fraction or a
 * number past 2^53.
 */
function keyValueOf(value: unknown): KeyValue | undefined {
  if (typeof value === "string") return value.trim() !== "" && value.length <= 200 ? value : undefined;
  return typeof value === "number" && Number.isSafeInteger(value) ? String(value) : undefined;
}

/**
 * Notes a timestamp's time of day as written (what follows the day, before the offset); once two differ,
 * nothing more is read. One with an offset must fall on the day written in UTC too, so showing the field
 * as a date in UTC names the day written.
 */
function observeClock(stats: FieldStats, value: string, offset: string | undefined): void {
  const clock = value.slice(11, value.length - (offset?.length ?? 0));
  if (stats.clock === undefined) stats.clock = clock;
  else if (stats.clock !== clock) {
    stats.clockVaries = true;
    return;
  }
  if (offset !== undefined && !stats.dayShifts) {
    const at = Date.parse(value);
    if (!Number.isFinite(at) || new Date(at).toISOString().slice(0, 10) !== value.slice(0, 10))
      stats.dayShifts = true;
  }
}

function isPhoneShaped(value: string): boolean {
  if (!phoneShape.test(value) || writtenDate.test(value)) return false;
  const digits = value.replace(/\D/g, "").length;
  return digits >= 7 && digits <= 15;
}

/**
 * Whether a pair is a key: it holds in nearly every ticket holding both fields, on a target unique there,
 * with two values joined at least. A pair of `small` integers (a record numbered `vehicleId: 7`, or a
 * quantity of 1 or 2 beside a count) is a key only when one side is a record's `id`, the identity every
 * collection declares, and it joined {@link maxDistinct} values: two quantities agree by chance, a
 * quantity and a record's identity in nearly every ticket across many values do not.
 */
function isKey(pair: PairStats, small: boolean): boolean {
  return (
    !pair.dead &&
    pair.holds >= keySupport &&
    pair.holds >= keyHolds * pair.tickets &&
    pair.unique >= keyUnique * pair.tickets &&
    pair.distinct.size >= (small ? maxDistinct : 2) &&
    (!small || split(pair.from)[1] === "id" || split(pair.to)[1] === "id")
  );
}

function byStrength(a: PairStats, b: PairStats): number {
  const score = (pair: PairStats) => pair.holds / pair.tickets + pair.unique / pair.tickets;
  return score(b) - score(a) || b.holds - a.holds || (a.from + a.to < b.from + b.to ? -1 : 1);
}

function kindOf(stats: FieldStats): { kind: FieldKind; share: number } | undefined {
  if (stats.values === 0) return undefined;
  const counts: [FieldKind, number][] = [
    ["date", stats.dates],
    ["timestamp", stats.timestamps],
    ["phone", stats.phones],
    ["currency", stats.currencies],
    ["amount", stats.amounts],
  ];
  for (const [kind, count] of counts) {
    // Order numbers and codes are digits too ("9654-4257"): a field is read as phones only when at least
    // half its values are written the way only phone numbers are.
    if (kind === "phone" && stats.dialled < 0.5 * stats.values) continue;
    if (count >= kindShare * stats.values) return { kind, share: count / stats.values };
  }
  // A field holding dates and timestamps both is read as timestamps: a date-only value reads as one.
  const dated = stats.dates + stats.timestamps;
  if (stats.timestamps > 0 && dated >= kindShare * stats.values)
    return { kind: "timestamp", share: dated / stats.values };
  return undefined;
}

function split(key: string): [string, string] {
  const at = key.indexOf(".");
  return [key.slice(0, at), key.slice(at + 1)];
}
