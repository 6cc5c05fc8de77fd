import { createHmac, createSecretKey } from "node:crypto";

/** The handle length before collisions lengthen it: 4 hex digits after the collection's prefix. */
const baseLength = 4;
// Digests a generation of the cache holds: the newest 50,000 or more are kept, and about 100,000 at most.
const digestCacheGeneration = 50_000;

/**
 * Makes handles: short, opaque, lower-case names for records (`o-3f2a`). A handle is a keyed hash of
 * collection and id, so it says nothing about the record, and is stable for the record in every run
 * that uses the same secret; handles that collide within one ticket are lengthened until unique.
 */
export function createHandleMaker(
  secret: string | Uint8Array,
  collections: readonly string[],
): (collection: string, ids: readonly string[]) => string[] {
  const prefixes = handlePrefixes(collections);
  // Imported once: an HMAC keyed with a KeyObject skips importing the key on every record.
  const key = createSecretKey(typeof secret === "string" ? Buffer.from(secret, "utf8") : secret);
  // By collection, then by id: a look-up hashes the record's own id string (V8 keeps a string's hash), where
  // one key of collection and id was a new string to build and hash for every record of every ticket.
  // Two generations: a full one becomes the previous, whose digests in use are carried into the new one,
  // so the newest records (the tickets in progress, whose handles a model was just shown) keep theirs;
  // a cache emptied whole when full makes every ticket in progress compute its digests again.
  let digests = new Map<string, Map<string, string>>();
  let previous = new Map<string, Map<string, string>>();
  let cached = 0;
  const digestsOf = (collection: string): Map<string, string> => {
    let byId = digests.get(collection);
    if (byId === undefined) {
      byId = new Map();
      digests.set(collection, byId);
    }
    return byId;
  };
  const digest = (
    collection: string,
    byId: Map<string, string>,
    older: Map<string, string> | undefined,
    id: string,
  ): string => {
    let hex = byId.get(id);
    if (hex === undefined) {
      hex = older?.get(id) ?? createHmac("sha256", key).update(`${collection}\u0000${id}`).digest("hex");
      byId.set(id, hex);
      cached++;
    }
    return hex;
  };
  return (collection, ids) => {
    // Turned over between calls, so one call's ids all go to the same generation.
    if (cached >= digestCacheGeneration) {
      previous = digests;
      digests = new Map();
      cached = 0;
    }
    const prefix = `${prefixes.get(collection) ?? collection}-`;
    const byId = digestsOf(collection);
    const older = previous.get(collection);
    const hexes = ids.map((id) => digest(collection, byId, older, id));
    const lengths = hexes.map(() => baseLength);
    // Lengthen every member of a colliding group by two digits until all handles differ.
    for (let round = 0; round < 30; round++) {
      const seen = new Map<string, number[]>();
      hexes.forEach((hex, index) => {
        const handle = hex.slice(0, lengths[index]);
        const group = seen.get(handle);
        if (group === undefined) seen.set(handle, [index]);
        else group.push(index);
      });
      let collided = false;
      for (const group of seen.values()) {
        if (group.length < 2) continue;
        collided = true;
        for (const index of group) lengths[index] = (lengths[index] ?? baseLength) + 2;
      }
      if (!collided) break;
    }
    return hexes.map((hex, index) => `${prefix}${hex.slice(0, lengths[index])}`);
  };
}

/**
 * The shortest prefix of each collection name that no other collection shares ("orders" → "o",
 * "sellers" → "se", "shipments" → "sh"), so the model can tell collections apart by their handles.
 */
export function handlePrefixes(collections: readonly string[]): ReadonlyMap<string, string> {
  const prefixes = new Map<string, string>();
  for (const name of collections) {
    let length = 1;
    while (
      length < name.length &&
      collections.some((other) => other !== name && other.startsWith(name.slice(0, length)))
    ) {
      length++;
    }
    prefixes.set(name, name.slice(0, length));
  }
  return prefixes;
}
