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
  const singulars = names.map(singular);
  const count = new Map<string, number>();
  for (const one of singulars) count.set(one, (count.get(one) ?? 0) + 1);
  // Collections called alike ("person" beside "people") are each written with their own name.
  const prefixes = new Map(
    names.map((name, at) => {
      const one = singulars[at] as string;
      return [name, (count.get(one) ?? 0) > 1 ? name : one] as const;
    }),
  );
  // Names are distinct; a prefix still met twice (a name that is another's rewritten prefix) takes names for all.
  const taken = new Set(prefixes.values());
  return taken.size === names.length ? prefixes : new Map(names.map((name) => [name, name] as const));
}
