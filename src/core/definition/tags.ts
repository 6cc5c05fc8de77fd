/**
 * Tags on a handled ticket (its category, queue, language…): short strings the escalation rate is
 * grouped by. One rule for every way in: `outbox.handle()`, the relay's request body, a replayed history.
 */
export const tagLimits = { count: 20, nameLength: 40, valueLength: 200 } as const;

/** What is wrong with `tags` as given to handle(), or undefined when they are fine. */
export function tagsProblem(tags: unknown): string | undefined {
  if (typeof tags !== "object" || tags === null || Array.isArray(tags))
    return "tags must be an object of short strings";
  const entries = Object.entries(tags);
  if (entries.length > tagLimits.count) return `at most ${tagLimits.count} tags`;
  for (const [index, [name, value]] of entries.entries()) {
    if (
      name === "" ||
      name.length > tagLimits.nameLength ||
      typeof value !== "string" ||
      value.length > tagLimits.valueLength
    ) {
      // The tag is named by its place, not its name: the message goes to logs, the name is the caller's.
      return `tag ${index + 1} of ${entries.length} must be a string of at most ${tagLimits.valueLength} characters, under a name of 1 to ${tagLimits.nameLength}`;
    }
  }
  return undefined;
}
