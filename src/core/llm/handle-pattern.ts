import { handlePrefixes } from "../decision/handles.js";

/**
 * The pattern (a JSON Schema `pattern`) every handle of a collection matches: the collection's prefix,
 * a dash and hex digits. It says nothing about any record, so it may sit in a schema every ticket shares.
 */
export type HandlePattern = (collection: string) => string;

/**
 * The handle patterns of a records definition's collections. Only constructs every strict mode reads
 * (anchors, a character class, `+`), so a provider can enforce it while decoding.
 */
export function handlePatterns(collections: readonly string[]): HandlePattern {
  const prefixes = handlePrefixes(collections);
  return (collection) => `^${escapeRegExp(prefixes.get(collection) ?? collection)}-[0-9a-f]+$`;
}

/** `text` as a regular expression that matches exactly it. */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}
