import type { RecordsDefinition } from "../core/definition/define-records.js";
import { cleanText } from "./clean-text.js";
import { type IdentifierSeen, resolveIdentifiers } from "./history-identifiers.js";
import { parseSentMessage } from "./history-line.js";
import { readMail } from "./mail/read-mail.js";
import { maskMessage, type ValueIndexOptions, valueIndex } from "./mask.js";
import { recipientSource } from "./recipient.js";

/** A line the reader could not hand over as text (not UTF-8, too long): counted as malformed. */
export interface LineProblem {
  readonly problem: string;
}

/**
 * One line of a history as clustering takes it: what {@link readLine} makes of it. Plain data, so a
 * worker thread can read lines and hand them over.
 */
export type ReadLine =
  /** A blank line: neither a message nor malformed. */
  undefined | { readonly problem: string } | ReadMessage;

/** A message, masked: everything clustering, the recipients' tally and the time span need of it. */
export interface ReadMessage {
  readonly at: number | undefined;
  /** What it is compared by: the masked greeting (which may name the recipient) and body. */
  readonly skeleton: string;
  /** The masked body alone. */
  readonly identity: string;
  readonly subject: string | undefined;
  /** Identifiers no record holds, of the body, the greeting, then the subject. */
  readonly identifiers: readonly IdentifierSeen[];
  /** Where the recipient is found in the ticket's records (`seller.email`); undefined when no record holds it. */
  readonly source: string | undefined;
  readonly channel: "email" | "sms";
  /** The ticket's records, when read on the thread that profiles them; left out when handed between threads. */
  readonly records?: Readonly<Record<string, unknown>>;
}

/** What reading a line needs of the records definition: its collections' names and fields, and its bound. */
export type ReadingDefinition = Pick<RecordsDefinition, "names" | "maxPerCollection"> & {
  readonly collections: Readonly<
    Record<string, { readonly shape: Readonly<Record<string, true>> } | undefined>
  >;
};

/**
 * The part of a records definition reading lines looks at (the collections' field names, not their
 * zod schemas, which functions make impossible to hand to another thread), as plain data.
 */
export function readingDefinition(definition: RecordsDefinition): ReadingDefinition {
  const collections: Record<string, { readonly shape: Readonly<Record<string, true>> } | undefined> = {};
  for (const name of definition.names) {
    const shape: unknown = definition.collections[name]?.shape;
    collections[name] =
      typeof shape === "object" && shape !== null
        ? { shape: Object.fromEntries(Object.keys(shape).map((field) => [field, true] as const)) }
        : undefined;
  }
  return { names: definition.names, maxPerCollection: definition.maxPerCollection, collections };
}

/**
 * Reads one line of a history into what clustering takes: parses it (a malformed line is a `problem`,
 * as is a line the history's reader could not hand over as text),
 * keeps what the writer wrote for this message (earlier messages, the signature and the closing cut
 * off), and masks the ticket's record values in its greeting, body and subject. Depends on nothing but
 * the line, so lines can be read in any order, on any thread.
 */
export function readLine(
  definition: RecordsDefinition | ReadingDefinition,
  text: string | LineProblem,
  options: Omit<ValueIndexOptions, "text">,
): ReadLine {
  const records = definition as RecordsDefinition;
  if (typeof text !== "string") return { problem: text.problem };
  if (text.trim() === "") return undefined;
  const line = parseSentMessage(text);
  if ("problem" in line) return { problem: line.problem };
  const mail = readMail(cleanText(line.text));
  const body = mail.greeting === undefined ? mail.body : `${mail.greeting}\n${mail.body}`;
  const subject = line.subject === undefined ? undefined : cleanText(line.subject);
  const index = valueIndex(records, line.records, {
    ...options,
    text: subject === undefined ? body : `${subject}\n${body}`,
  });
  // An identifier masking did not make a placeholder is either a record's value written another way
  // (it becomes the placeholder) or one no record holds: it never reaches a skeleton, so no draft.
  const masked = resolveIdentifiers(maskMessage(mail.body, index).skeleton, index);
  const greeting =
    mail.greeting === undefined
      ? undefined
      : resolveIdentifiers(maskMessage(mail.greeting, index).skeleton, index);
  const maskedSubject =
    subject === undefined ? undefined : resolveIdentifiers(maskMessage(subject, index).skeleton, index);
  return {
    at: line.at,
    skeleton: greeting === undefined ? masked.skeleton : `${greeting.skeleton} ${masked.skeleton}`,
    identity: masked.skeleton,
    subject: maskedSubject?.skeleton,
    identifiers: [...masked.leftOut, ...(greeting?.leftOut ?? []), ...(maskedSubject?.leftOut ?? [])],
    source: recipientSource(records, line.records, line.to),
    channel: line.to.includes("@") ? "email" : "sms",
    records: line.records,
  };
}
