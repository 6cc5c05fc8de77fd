/** One message of a free-text history: the ticket's records and the message a person or agent sent. */
export interface SentMessage {
  readonly ticketId: string;
  /** The ticket's records as your loader returns them: `{ orders: [...], sellers: [...] }`. */
  readonly records: Readonly<Record<string, unknown>>;
  readonly channel: string | undefined;
  /** The address the message went to, as written in the history. */
  readonly to: string;
  readonly subject: string | undefined;
  readonly text: string;
  /** Epoch milliseconds, from `at` (ISO 8601 or epoch milliseconds); undefined without `at`. */
  readonly at: number | undefined;
}

/** Longest text read from one message: a history is messages people wrote, not documents. */
export const maxMessageText = 20_000;

/**
 * Reads one line of a mining history: `{ ticketId, records, message: { channel?, to, subject?, text }, at?,
 * tags? }`. A line that is not one is a `problem` naming what is wrong, never an exception.
 */
export function parseSentMessage(text: string): SentMessage | { readonly problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "not JSON" };
  }
  if (!isObject(value)) return { problem: "not an object" };
  if (typeof value.ticketId !== "string" || value.ticketId === "") return { problem: "no ticketId string" };
  if (!isObject(value.records)) return { problem: "records is not an object of collections" };
  const message = value.message;
  if (!isObject(message)) return { problem: "no message object" };
  if (typeof message.to !== "string") return { problem: "message.to is not a string" };
  if (typeof message.text !== "string") return { problem: "message.text is not a string" };
  if (message.subject !== undefined && typeof message.subject !== "string")
    return { problem: "message.subject is not a string" };
  if (message.channel !== undefined && typeof message.channel !== "string")
    return { problem: "message.channel is not a string" };
  let at: number | undefined;
  if (value.at !== undefined && value.at !== null) {
    at =
      typeof value.at === "number"
        ? value.at
        : typeof value.at === "string"
          ? Date.parse(value.at)
          : Number.NaN;
    if (!Number.isFinite(at) || Math.abs(at) > 8.64e15)
      return { problem: "at is neither an ISO 8601 time nor epoch milliseconds" };
  }
  return {
    ticketId: value.ticketId,
    records: value.records,
    channel: message.channel as string | undefined,
    to: message.to.slice(0, 320),
    subject: (message.subject as string | undefined)?.slice(0, 1000),
    text: message.text.slice(0, maxMessageText),
    at,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
