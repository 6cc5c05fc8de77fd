import { snippet } from "../core/message/sanitize.js";

/** What loading gave: records to decide on (a plain copy), or why there are none. */
export type Loaded = { ok: true; records: unknown } | { ok: false; problem: string };

// Far above any real ticket (collections hold at most a few hundred records), low enough that a value
// that makes a fresh object on every read, forever, is stopped quickly.
const maxDepth = 64;
const maxValues = 500_000;

/**
 * A ticket's records from the loader, checked to be that ticket's: a loader that throws, does not answer
 * within `timeoutMs`, or returns another ticket's records (a cache keyed wrongly), gives a problem, never
 * records to decide on or show.
 *
 * What the loader returned is read exactly once, into a plain copy that decide() then reads: a getter
 * that throws, a revoked Proxy, a Proxy whose traps lie or throw, or a getter that answers differently
 * on each read can make the copy fail (a problem) but cannot make decide() throw, nor make what was
 * checked differ from what is sent. Records the loader returns as they are (not a promise) are given
 * back at once, not in a promise: await the result either way.
 */
export function loadRecords(
  load: (ticketId: string) => unknown,
  ticketId: string,
  timeoutMs = 30_000,
): Loaded | Promise<Loaded> {
  let loaded: unknown;
  let waiting: Promise<unknown> | undefined;
  try {
    loaded = load(ticketId);
    // Only a real promise is waited for, and never longer than the timeout (it may be adopting a
    // thenable that never settles). Anything else is the records themselves, read at once (no promise
    // nor turn of the event loop of their own): a thenable returned as they are is data with a function
    // in it, refused by the copy. (`instanceof` asks a Proxy's trap, which may throw.)
    if (loaded instanceof Promise) waiting = loaded;
  } catch (error) {
    return threw(error);
  }
  return waiting === undefined ? checked(loaded, ticketId) : awaitLoaded(waiting, ticketId, timeoutMs);
}

async function awaitLoaded(loading: Promise<unknown>, ticketId: string, timeoutMs: number): Promise<Loaded> {
  let timer: NodeJS.Timeout | undefined;
  let loaded: unknown;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${timeoutMs} ms (loadTimeoutMs)`)),
        timeoutMs,
      );
    });
    loaded = await Promise.race([loading, timeout]);
  } catch (error) {
    return threw(error);
  } finally {
    clearTimeout(timer);
  }
  return checked(loaded, ticketId);
}

function threw(error: unknown): Loaded {
  return { ok: false, problem: `the record loader threw: ${snippet(describe(error), 200)}` };
}

/** What the loader gave, read once into a plain copy and checked to be `ticketId`'s. */
function checked(loaded: unknown, ticketId: string): Loaded {
  let records: unknown;
  try {
    records = plainCopy(loaded);
  } catch (error) {
    return { ok: false, problem: `the records could not be read: ${snippet(describe(error), 200)}` };
  }
  const loadedId =
    typeof records === "object" && records !== null
      ? (records as { ticketId?: unknown }).ticketId
      : undefined;
  if (loadedId !== ticketId) {
    return {
      ok: false,
      problem: `the record loader returned records of another ticket (or none) for ${ticketId}`,
    };
  }
  return { ok: true, records };
}

/**
 * A copy of `value` made of plain data, each property read once: objects (as plain objects) and arrays
 * copied, Dates, Maps and Sets copied, primitives kept.
 * Throws on a cycle, on more than `maxDepth` levels or `maxValues` values, and whatever a hostile value
 * throws while it is read.
 */
function plainCopy(value: unknown): unknown {
  let values = 0;
  // The objects being copied, outermost first: an array, as the path is short (a Set would give each
  // object an identity hash, stored on it).
  const path: object[] = [];
  const copy = (item: unknown, depth: number): unknown => {
    if (++values > maxValues) throw new Error(`more than ${maxValues} values`);
    if (typeof item === "function") throw new Error("a function where data was expected");
    if (typeof item !== "object" || item === null) return item;
    if (depth > maxDepth) throw new Error(`nested more than ${maxDepth} levels deep`);
    if (path.includes(item)) throw new Error("the records refer to themselves (a cycle)");
    path.push(item);
    try {
      if (item instanceof Date) return new Date(Date.prototype.getTime.call(item));
      if (item instanceof Map) {
        const out = new Map<unknown, unknown>();
        for (const [key, entry] of Map.prototype.entries.call(item))
          out.set(copy(key, depth + 1), copy(entry, depth + 1));
        return out;
      }
      if (item instanceof Set) {
        const out = new Set<unknown>();
        for (const entry of Set.prototype.values.call(item)) out.add(copy(entry, depth + 1));
        return out;
      }
      if (Array.isArray(item)) {
        const length = item.length;
        if (!Number.isSafeInteger(length) || length < 0 || length > maxValues)
          throw new Error("an array with an impossible length");
        const out: unknown[] = [];
        for (let index = 0; index < length; index++) out.push(copy(item[index], depth + 1));
        return out;
      }
      const prototype = Reflect.getPrototypeOf(item);
      // A plain object whatever the prototype claims: a prototype's getters are code the copy would not
      // have read, and could answer differently later.
      const out: Record<string, unknown> = Object.create(prototype === null ? null : Object.prototype);
      // Object.keys asks a Proxy's ownKeys and getOwnPropertyDescriptor traps, and keeps the enumerable
      // string keys that exist: a key listed twice throws, a key listed but absent is left out.
      for (const key of Object.keys(item)) {
        const entry = copy((item as Record<string, unknown>)[key], depth + 1);
        if (key === "__proto__")
          Object.defineProperty(out, key, {
            value: entry,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else out[key] = entry;
      }
      return out;
    } finally {
      path.pop();
    }
  };
  return copy(value, 0);
}

function describe(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "an error that cannot be described";
  }
}
