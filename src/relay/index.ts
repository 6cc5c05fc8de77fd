/**
 * @module formletter/relay: the outbox as its own HTTP service — task tokens for agents, operator tokens for the queue, Prometheus metrics.
 */

export type {
  DeliveryEvent,
  DeliveryEventStatus,
  EventProvider,
} from "../providers/events/delivery-event.js";
export type { PostmarkEventsOptions } from "../providers/events/postmark.js";
export { postmarkEvents } from "../providers/events/postmark.js";
export type { ResendEventsOptions } from "../providers/events/resend.js";
export { resendEvents } from "../providers/events/resend.js";
export type { SendgridEventsOptions } from "../providers/events/sendgrid.js";
export { sendgridEvents } from "../providers/events/sendgrid.js";
export type { SesEventsOptions } from "../providers/events/ses.js";
export { sesEvents } from "../providers/events/ses.js";
export type { TwilioEventsOptions } from "../providers/events/twilio.js";
export { twilioEvents } from "../providers/events/twilio.js";
export type { EventRequest, EventVerifier, Verified } from "../providers/events/verifier.js";
export type { ProposalReply } from "./agent-routes.js";
export type { TokenRefusalAuditOptions } from "./audit-sample.js";
export type { RelayClient, RelayClientOptions, RelayTools } from "./client.js";
export { createRelayClient } from "./client.js";
export type { RelayErrorCode } from "./errors.js";
export { RelayError, RelayRequestError } from "./errors.js";
export type { DeliveryEventVerifiers } from "./event-routes.js";
export type { RevocationQuery } from "./gate.js";
export type { RelayModule } from "./module.js";
export type { RateLimitOptions } from "./rate-limit.js";
export type { Relay, RelayOptions } from "./relay.js";
export { createRelay } from "./relay.js";
export type { RelayLogger } from "./request-log.js";
export type { ListenOptions, RelayAddress } from "./server.js";
export type { MintOperatorTokenOptions, MintTaskTokenOptions, TokenAudience } from "./tokens.js";
export { agentAudience, mintOperatorToken, mintTaskToken, operatorAudience } from "./tokens.js";
