import type { Message } from "../core/decision/decision.js";
import { printable } from "../core/message/sanitize.js";
import type { DeliveryContext, DeliveryReceipt, Transport } from "./transport.js";

/**
 * Options of {@link consoleTransport}.
 *
 * @example
 * import { consoleTransport } from "formletter";
 * consoleTransport({ name: "chat-preview", write: (text) => process.stderr.write(text) });
 */
export interface ConsoleTransportOptions {
  /** The transport's name in the audit log. @default "console" */
  readonly name?: string;
  /** Where the text goes. @default (text) => process.stdout.write(text) */
  readonly write?: (text: string) => void;
}

// Labels padded to one width so values start in the same column.
const field = (label: string, value: string): string => `${`${label}:`.padEnd(10)}${printable(value)}\n`;

const indent = (text: string): string =>
  printable(text)
    .split("\n")
    .map((line) => (line === "" ? "" : `    ${line}`))
    .join("\n");

// The text written for one message: a rule with the receipt id, aligned fields, then the body indented.
function formatDelivery(message: Message, context: DeliveryContext, id: string): string {
  let out = `── ${id} ${"─".repeat(Math.max(3, 60 - id.length))}\n`;
  out += field("channel", message.channel);
  out += field("template", message.template);
  out += field("to", message.to);
  if (message.locale !== undefined) out += field("locale", message.locale);
  if (message.subject !== undefined) out += field("subject", message.subject);
  out += field("key", context.attempt > 1 ? `${context.key} (attempt ${context.attempt})` : context.key);
  if (message.sms !== undefined)
    out += field("sms", `${message.sms.segments} segment(s), ${message.sms.encoding}`);
  // The HTML part is the same content as the text; printing markup would only bury it.
  if (message.html !== undefined) out += field("html", `${message.html.length} characters, not shown`);
  out += `\n${indent(message.text)}\n\n`;
  return out;
}

/**
 * A transport that prints each message, readably laid out, instead of delivering it: for examples,
 * demos and local development. Output goes to `write`, never to `console`. Receipt ids are
 * `console-<n>`, counted across every console transport of the process, so no two deliveries share one.
 *
 * @example
 * import { consoleTransport } from "formletter";
 * const transports = { email: consoleTransport(), sms: consoleTransport({ write: (text) => log.push(text) }) };
 */
// One count for every console transport of the process: receipt ids are the outbox's record of what
// was delivered, and an e-mail and an SMS printed by two transports must not both be "console-1".
let delivered = 0;

export function consoleTransport(options: ConsoleTransportOptions = {}): Transport {
  // Looked up on each call, not captured, so a stream replaced later (test runners, pagers) is honoured.
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  return {
    name: options.name ?? "console",
    async deliver(message: Message, context: DeliveryContext): Promise<DeliveryReceipt> {
      delivered += 1;
      const id = `console-${delivered}`;
      write(formatDelivery(message, context, id));
      return { id };
    },
  };
}
