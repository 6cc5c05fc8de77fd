import { randomBytes } from "node:crypto";
import type { Message } from "../core/decision/decision.js";
import type { Sender } from "../transport/sender.js";

/**
 * A raw MIME message for an API that takes one (SES `Content.Raw`): the headers formletter sets and
 * nothing else, every text part base64 of its exact UTF-8 bytes. Base64 keeps the bytes whole through
 * every relay (no line is re-wrapped, no trailing space is lost), and its alphabet cannot contain the
 * boundary, which always holds a "-".
 */
export function mimeMessage(sender: Sender, to: string, message: Message): string {
  const headers = [
    `From: ${mailbox(sender)}`,
    `To: ${to}`,
    `Subject: ${encodedWords(message.subject ?? "")}`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
  ];
  // A tag from the template's own locale; anything else is left out rather than written into a header.
  if (message.locale !== undefined && /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(message.locale))
    headers.push(`Content-Language: ${message.locale}`);
  const text = part("text/plain", message.text);
  if (message.html === undefined) return [...headers, ...text, ""].join("\r\n");
  const boundary = `formletter-${randomBytes(12).toString("hex")}`;
  return [
    ...headers,
    // Folded so that every header line stays within 78 characters.
    `Content-Type: multipart/alternative;\r\n boundary="${boundary}"`,
    "",
    `--${boundary}`,
    ...text,
    `--${boundary}`,
    ...part("text/html", message.html),
    `--${boundary}--`,
    "",
  ].join("\r\n");
}

function part(type: string, content: string): string[] {
  const base64 = Buffer.from(content, "utf8").toString("base64");
  return [
    `Content-Type: ${type}; charset=UTF-8`,
    "Content-Transfer-Encoding: base64",
    "",
    ...(base64.match(/.{1,76}/g) ?? []),
  ];
}

// The sender was checked at creation: its name has no quote, backslash or line break, its address no space.
function mailbox(sender: Sender): string {
  if (sender.name === "") return sender.address;
  const name = /^[\x20-\x7E]*$/.test(sender.name) ? `"${sender.name}"` : encodedWords(sender.name);
  return `${name} <${sender.address}>`;
}

/**
 * RFC 2047 encoded words (UTF-8, base64) for a header text, each at most 40 bytes of text so a folded
 * line, "Subject: " included, stays within 78 characters; split between code points, never inside one.
 */
function encodedWords(text: string): string {
  if (text === "") return "";
  const words: string[] = [];
  let chunk = "";
  for (const character of text) {
    if (Buffer.byteLength(chunk + character, "utf8") > 40) {
      words.push(chunk);
      chunk = "";
    }
    chunk += character;
  }
  words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word, "utf8").toString("base64")}?=`).join("\r\n ");
}
