/**
 * @module formletter/providers: transports through providers' official SDKs (e-mail: Amazon SES,
 * Postmark, Resend, SendGrid; SMS and WhatsApp: Twilio; chat: Slack), each an optional peer dependency
 * loaded when its transport is created.
 */

export type { PostmarkTransportOptions } from "./postmark.js";
export { postmarkTransport } from "./postmark.js";
export type { ProviderFailure, ProviderFailureReason } from "./provider-error.js";
export { ProviderDeliveryError } from "./provider-error.js";
export type { ProviderTransportOptions } from "./provider-options.js";
export type { ResendTransportOptions } from "./resend.js";
export { resendTransport } from "./resend.js";
export type { SendgridTransportOptions } from "./sendgrid.js";
export { sendgridTransport } from "./sendgrid.js";
export type { SesTransportOptions } from "./ses.js";
export { sesTransport } from "./ses.js";
export type { SlackTransportOptions } from "./slack.js";
export { slackTransport } from "./slack.js";
export type { TwilioContentTemplate, TwilioTransportOptions } from "./twilio.js";
export { twilioTransport } from "./twilio.js";
