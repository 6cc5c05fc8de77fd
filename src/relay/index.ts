/**
 * @module formletter/relay: the outbox as its own HTTP service — task tokens for agents, operator tokens for the queue, Prometheus metrics.
 */

export type { ProposalReply } from "./agent-routes.js";
export type { TokenRefusalAuditOptions } from "./audit-sample.js";
export type { RelayClient, RelayClientOptions, RelayTools } from "./client.js";
export { createRelayClient } from "./client.js";
export type { RelayErrorCode } from "./errors.js";
export { RelayError, RelayRequestError } from "./errors.js";
export type { RevocationQuery } from "./gate.js";
export type { RelayModule } from "./module.js";
export type { RateLimitOptions } from "./rate-limit.js";
export type { Relay, RelayOptions } from "./relay.js";
export { createRelay } from "./relay.js";
export type { RelayLogger } from "./request-log.js";
export type { ListenOptions, RelayAddress } from "./server.js";
export type { MintOperatorTokenOptions, MintTaskTokenOptions, TokenAudience } from "./tokens.js";
export { agentAudience, mintOperatorToken, mintTaskToken, operatorAudience } from "./tokens.js";
