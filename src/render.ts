import { renderParts } from "./body.js";
import { escapeHtml, maxSubjectLength, noEscape, smsSize, whatsappRules } from "./channels.js";
import type { Message } from "./decision.js";
import type { Template } from "./template.js";

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
    const rendered = renderParts(template.subject, values, chosen, noEscape);
    if (typeof rendered !== "string") return missing(rendered.missing);
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
  switch (template.channel) {
    case "email":
      if ((subject?.length ?? 0) > maxSubjectLength)
        return rejected(`the subject of ${template.id} is over ${maxSubjectLength} characters`);
      break;
    case "sms": {
      const size = smsSize(text);
      if (size.segments > template.maxSegments) {
        return rejected(
          `the SMS of ${template.id} takes ${size.segments} ${size.encoding} segments, over maxSegments ${template.maxSegments}`,
        );
      }
      message.sms = { segments: size.segments, encoding: size.encoding };
      break;
    }
    case "whatsapp":
      if (text.length > whatsappRules.maxBody)
        return rejected(`the body of ${template.id} is over WhatsApp's ${whatsappRules.maxBody} characters`);
      if ((subject?.length ?? 0) > whatsappRules.maxHeader) {
        return rejected(
          `the header of ${template.id} is over WhatsApp's ${whatsappRules.maxHeader} characters`,
        );
      }
      break;
    case "chat":
      break;
  }
  return message;
}
