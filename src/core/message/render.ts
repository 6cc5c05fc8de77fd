import type { Message } from "../decision/decision.js";
import { channelLimit } from "../definition/channel-limits.js";
import { escapeHtml, foldLine, hasLineBreak, noEscape } from "../definition/channels.js";
import type { Template } from "../definition/template-types.js";
import { renderParts } from "../definition/text-parts.js";
import { htmlReaderText } from "../scan/html-reading.js";

/**
 * Renders a template's subject, body and HTML from its pre-parsed parts and the resolved values, with the
 * channel's escaping, then applies the channel's limits. A problem (a value missing, a limit passed) is
 * returned, never thrown: decide() turns it into `slot_rejected`.
 */
export function renderMessage(
  template: Template,
  values: ReadonlyMap<string, string>,
  chosen: Readonly<Record<string, unknown>>,
  to: string,
): Message | { readonly problem: string } {
  const rejected = (problem: string) => ({ problem });
  const missing = (tag: string) => rejected(`{{${tag}}} of ${template.id} has no value for this ticket`);
  const text = renderParts(template.body, values, chosen, noEscape);
  if (typeof text !== "string") return missing(text.missing);
  let subject: string | undefined;
  if (template.subject !== undefined) {
    const rendered = renderParts(template.subject, values, chosen, foldLine);
    if (typeof rendered !== "string") return missing(rendered.missing);
    // Template text and choice labels are one line by definition, and values are folded: this never fires
    // unless one of those guarantees is broken, and then it stops the message.
    if (hasLineBreak(rendered)) return rejected(`the subject of ${template.id} holds a line break`);
    subject = rendered;
  }
  let html: string | undefined;
  if (template.html !== undefined) {
    const rendered = renderParts(template.html, values, chosen, escapeHtml);
    if (typeof rendered !== "string") return missing(rendered.missing);
    html = rendered;
  }
  const message: { -readonly [K in keyof Message]: Message[K] } = {
    template: template.id,
    channel: template.channel,
    to,
    text,
  };
  if (subject !== undefined) message.subject = subject;
  if (html !== undefined) message.html = html;
  if (template.locale !== undefined) message.locale = template.locale;
  const { broken, sms } = channelLimit(template.channel, { subject, body: text }, template.maxSegments);
  if (broken !== undefined) {
    return rejected(
      broken.unit === "segments"
        ? `the SMS of ${template.id} takes ${broken.count} ${broken.encoding} segments, over maxSegments ${broken.max}`
        : template.channel === "whatsapp"
          ? `the ${broken.part} of ${template.id} is over WhatsApp's ${broken.max} characters`
          : `the subject of ${template.id} is over ${broken.max} characters`,
    );
  }
  if (sms !== undefined) message.sms = { segments: sms.segments, encoding: sms.encoding };
  return message;
}

/** The text-bearing parts of a message; every other field is listed in `Exclude` as the envelope. */
type ReadablePart = Exclude<keyof Message, "template" | "channel" | "to" | "sms" | "locale">;

type Reader = (
  template: Template,
  message: Message,
  values: ReadonlyMap<string, string>,
  chosen: Readonly<Record<string, unknown>>,
) => string | undefined;

/**
 * How a recipient reads each part. The type lists every text field of `Message`: a part added there and
 * not here fails to compile, so no part can be left out of the scan.
 */
const readers: { readonly [K in ReadablePart]-?: Reader } = {
  subject: (_template, message) => message.subject,
  text: (_template, message) => message.text,
  // The HTML as a browser shows it (text and attribute values, entities decoded), rendered from the reader's
  // view the template's HTML was compiled into: the definition check proved each value lands in text or a
  // quoted attribute, so no parse is needed per message.
  html: (template, message, values, chosen) => {
    if (message.html === undefined) return undefined;
    // A template built without the reader's view (not through defineTemplate) is parsed here instead.
    if (template.htmlText === undefined) return htmlReaderText(message.html);
    const text = renderParts(template.htmlText, values, chosen, noEscape);
    return typeof text === "string" ? text : htmlReaderText(message.html);
  },
};
const readableParts = Object.keys(readers) as ReadablePart[];

/**
 * Every part of a rendered message as its recipient reads it, one after the other with a line break
 * between parts, so a token cannot span two parts: the text the outbound scan reads.
 */
export function readableText(
  template: Template,
  message: Message,
  values: ReadonlyMap<string, string>,
  chosen: Readonly<Record<string, unknown>>,
): string {
  let out = "";
  for (const part of readableParts) {
    const text = readers[part](template, message, values, chosen);
    if (text !== undefined) out = out === "" ? text : `${out}\n${text}`;
  }
  return out;
}
