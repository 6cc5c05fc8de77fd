import { singular } from "./singular.js";

/** Each collection's placeholder prefix, by the list of names it was read from. */
const prefixesByNames = new WeakMap<readonly string[], ReadonlyMap<string, string>>();

/**
 * The prefix a collection's placeholders are written with (`{{order.total}}` for `orders`): its name as
 * one of its records is called (see {@link singular}), unless another collection of the same records is
 * called so too ("person" and "people", "address" and "addresses"): then each of them is written with
 * its own name, so one placeholder never stands for the fields of two collections.
 */
export function placeholderPrefix(names: readonly string[], collection: string): string {
  let prefixes = prefixesByNames.get(names);
  if (prefixes === undefined) {
    prefixes = prefixesOf(names);
    prefixesByNames.set(names, prefixes);
  }
  return prefixes.get(collection) ?? singular(collection);
}

/** The collection whose placeholders are written with `prefix`, if any. */
export function collectionOfPrefix(names: readonly string[], prefix: string): string | undefined {
  return names.find((name) => placeholderPrefix(names, name) === prefix);
}

function prefixesOf(names: readonly string[]): ReadonlyMap<string, string> {
  const count = new Map<string, number>();
  for (const name of names) count.set(singular(name), (count.get(singular(name)) ?? 0) + 1);
  const prefixes = new Map(names.map((name) => [name, singular(name)] as const));
  // A collection named as another's singular ("person" beside "people") is written with its name too.
  for (const name of names) if ((count.get(singular(name)) ?? 0) > 1) prefixes.set(name, name);
  // Names are distinct; a prefix still met twice (a name that is another's rewritten prefix) takes names for all.
  const taken = new Set(prefixes.values());
  return taken.size === names.length ? prefixes : new Map(names.map((name) => [name, name] as const));
}
