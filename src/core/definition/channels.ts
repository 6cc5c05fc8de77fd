/** The channels a template can send on. */
export type Channel = "email" | "sms" | "chat" | "whatsapp";

export const channels: readonly Channel[] = ["email", "sms", "chat", "whatsapp"];

/** What a recipient must resolve to on each channel. */
export const recipientKind: Readonly<Record<Channel, "email" | "phone" | "chat_id">> = {
  email: "email",
  sms: "phone",
  whatsapp: "phone",
  chat: "chat_id",
};

/**
 * Limits the messaging platforms enforce on WhatsApp-style template messages (docs/providers.md,
 * "WhatsApp template rules", gives each one's source).
 */
export const whatsappRules = {
  maxBody: 1024,
  maxHeader: 60,
  /** Twilio's Content API takes at most 100 variables a template. */
  maxVariables: 100,
  /**
   * Meta refuses a template with "too many variable parameters relative to the message length" and
   * publishes no number; the fixed text must hold at least this many words per variable, plus one
   * (words and variables together at least three per variable plus one, a ratio reported to pass).
   */
  fixedWordsPerVariable: 2,
} as const;

/** Email subjects longer than this are cut or rejected by many clients and gateways. */
export const maxSubjectLength = 200;

// The GSM 03.38 basic set, and the extension set whose characters cost two septets.
const gsmBasic = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà",
);
const gsmExtension = new Set("^{}\\[~]|€\f");

/** How an SMS body is encoded and how many segments it takes. */
export interface SmsSize {
  readonly encoding: "GSM-7" | "UCS-2";
  /** Septets for GSM-7, UTF-16 code units for UCS-2. */
  readonly units: number;
  readonly segments: number;
}

/**
 * Counts SMS segments: GSM-7 fits 160 septets in one segment and 153 per segment when concatenated;
 * any character outside GSM-7 switches the whole message to UCS-2 (70, then 67 per segment).
 */
export function smsSize(text: string): SmsSize {
  let septets = 0;
  for (const char of text) {
    if (gsmBasic.has(char)) septets += 1;
    else if (gsmExtension.has(char)) septets += 2;
    else {
      const units = text.length;
      return { encoding: "UCS-2", units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
    }
  }
  return { encoding: "GSM-7", units: septets, segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
}

const htmlEscapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes a value for HTML text and attribute context. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => htmlEscapes[char] ?? char);
}

const lineBreaks = /[\r\n\u000B\u000C\u0085\u2028\u2029]+/g;
const lineBreak = /[\r\n\u000B\u000C\u0085\u2028\u2029]/;

/**
 * A subject (e-mail subject, WhatsApp header, chat title) is one line on every channel: a multi-line
 * value's line breaks become spaces there, as a single-line format would fold them. A line break in a
 * subject would start a new mail header.
 */
export function foldLine(value: string): string {
  return value.replace(lineBreaks, " ");
}

/** Whether the text holds a line break of any kind. */
export function hasLineBreak(value: string): boolean {
  return lineBreak.test(value);
}

/** Plain-text channels insert values as they are: they were sanitised when formatted. */
export const noEscape = (value: string): string => value;

const chatId = /^[A-Za-z0-9._:@#+-]{1,128}$/;

/** Checks a chat recipient: an opaque user or channel id, never free text. */
export function isChatId(value: string): boolean {
  return chatId.test(value);
}
