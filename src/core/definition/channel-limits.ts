import type { Channel } from "./channels.js";
import { maxSubjectLength, type SmsSize, smsSize, whatsappRules } from "./channels.js";

/** A channel limit a text breaks: which part, the limit and the text's size, in characters or segments. */
export interface ChannelLimit {
  readonly part: "subject" | "header" | "body";
  readonly max: number;
  readonly count: number;
  readonly unit: "characters" | "segments";
  /** SMS only: the encoding the segments were counted in. */
  readonly encoding?: SmsSize["encoding"];
}

/**
 * The channels' limits, checked in one place: by `defineTemplate` on a template's fixed text (so a
 * template that can never fit is refused at start-up) and by `decide()` on the rendered message. The
 * first limit broken, or undefined; for SMS also the size, which the message records.
 */
export function channelLimit(
  channel: Channel,
  text: { readonly subject: string | undefined; readonly body: string },
  maxSegments: number,
): { readonly broken: ChannelLimit | undefined; readonly sms?: SmsSize } {
  const subjectLength = text.subject?.length ?? 0;
  switch (channel) {
    case "email":
      return subjectLength > maxSubjectLength
        ? { broken: { part: "subject", max: maxSubjectLength, count: subjectLength, unit: "characters" } }
        : { broken: undefined };
    case "sms": {
      const sms = smsSize(text.body);
      return sms.segments > maxSegments
        ? {
            broken: {
              part: "body",
              max: maxSegments,
              count: sms.segments,
              unit: "segments",
              encoding: sms.encoding,
            },
            sms,
          }
        : { broken: undefined, sms };
    }
    case "whatsapp":
      if (text.body.length > whatsappRules.maxBody)
        return {
          broken: { part: "body", max: whatsappRules.maxBody, count: text.body.length, unit: "characters" },
        };
      if (subjectLength > whatsappRules.maxHeader)
        return {
          broken: { part: "header", max: whatsappRules.maxHeader, count: subjectLength, unit: "characters" },
        };
      return { broken: undefined };
    case "chat":
      return { broken: undefined };
  }
}
