/**
 * Mail structure, cut by the conventions of e-mail before mining compares messages: earlier messages,
 * signatures, greetings and closings (see {@link readMail}), and the key lines are counted by.
 */
export { lineKey } from "./line-key.js";
export type { MailParts } from "./read-mail.js";
export { readMail } from "./read-mail.js";
