import { Hono } from "hono";
import { merged } from "../core/merged.js";
import type { Outbox } from "../outbox/index.js";
import { createAccessLog } from "./access-log.js";
import { agentRoutes } from "./agent-routes.js";
import { createAuditSampler, type TokenRefusalAuditOptions } from "./audit-sample.js";
import { RelayError } from "./errors.js";
import { type DeliveryEventVerifiers, eventRoutes } from "./event-routes.js";
import { createGate, type RevocationQuery } from "./gate.js";
import { problem } from "./http.js";
import { mcpRoutes } from "./mcp-routes.js";
import { operatorRoutes } from "./operator-routes.js";
import { createQueueDepth } from "./queue-depth.js";
import { createRateLimiter, type RateLimitOptions } from "./rate-limit.js";
import { createRelayMetrics } from "./relay-metrics.js";
import { createRequestLog, type RelayLogger } from "./request-log.js";
import { mountRoutes, type Route } from "./routes.js";
import { type ListenOptions, type RelayAddress, type RunningServer, startServer } from "./server.js";
import { serviceRoutes } from "./service-routes.js";
import {
  defaultIssuer,
  type SigningKey,
  secretBytes,
  secretKey,
  signOperatorToken,
  signTaskToken,
} from "./tokens.js";
import { createTokenVerifier } from "./verify-token.js";
import { mountWorkspace, type RelayWorkspaceOptions } from "./workspace-mount.js";

/**
 * Options of {@link createRelay}.
 *
 * @example
 * import { createRelay } from "formletter/relay";
 * createRelay({ outbox, secret: process.env.FORMLETTER_SECRET ?? "", requestTimeoutMs: 5000 });
 */
export interface RelayOptions {
  /**
   * The outbox, whole: proposals go to it; `/v1/tools` and `/v1/describe` are built from its catalog and
   * its loader's records; refused requests join its audit log as `access` events, beside the decisions.
   */
  readonly outbox: Outbox;
  /** Signs and verifies task tokens (`FORMLETTER_SECRET`): at least 32 bytes of random data. */
  readonly secret: string | Uint8Array;
  /**
   * Signs and verifies operator tokens (`FORMLETTER_OPERATOR_SECRET`); it must differ from `secret`, so
   * whoever mints task tokens cannot mint operator ones. Without it the operator endpoints do not exist.
   * @default undefined
   */
  readonly operatorSecret?: string | Uint8Array;
  /** The `iss` claim tokens carry and must carry. @default "formletter" */
  readonly issuer?: string;
  /**
   * Largest request body, in bytes; larger is refused with 413. The default is just over the longest
   * output `decide()` reads (1,000,000 characters), so every output ends as it would in process.
   * @default 1048576
   */
  readonly maxBodyBytes?: number;
  /** Requests per token per window; more is refused with 429. @default { max: 120, windowMs: 60000 } */
  readonly rateLimit?: RateLimitOptions;
  /**
   * How requests refused for their token are audited: in full up to `full` a window, then one in
   * `every`, so a flood of bad tokens cannot grow the audit log without bound. Each is counted in
   * `/metrics` either way. @default { full: 20, every: 100, windowMs: 60000 }
   */
  readonly tokenRefusalAudit?: TokenRefusalAuditOptions;
  /** How long a request may take, receiving it included; past it the answer is 503. @default 10000 */
  readonly requestTimeoutMs?: number;
  /** How long a verified token is remembered (never past its expiry), in milliseconds. @default 30000 */
  readonly tokenCacheMs?: number;
  /** Clock difference allowed between the host that mints tokens and the relay, in seconds. @default 5 */
  readonly clockToleranceSeconds?: number;
  /** Epoch milliseconds now. @default Date.now */
  readonly clock?: () => number;
  /**
   * Where to log each request (method, route pattern, status, duration, token subject, refusal code),
   * and the server's start, stop and failures: a `pino()` logger, or any with `info`, `warn` and
   * `error`. Never a body, token, message or record value. Without one the relay logs nothing.
   * @default undefined
   */
  readonly logger?: RelayLogger;
  /**
   * The origins a browser page may call `/mcp` from, e.g. `["https://app.example.com"]`. A request with
   * any other `Origin` header is refused (403) before its token is read, as the MCP transport requires
   * against DNS rebinding; requests without one (agents, not browsers) are not affected.
   * @default []
   */
  readonly mcpAllowedOrigins?: readonly string[];
  /**
   * Asked on every request a verified token makes, the MCP endpoint's included: true when the token was
   * revoked (a run stopped, an agent no longer trusted), and the request is refused 401 `token_revoked`.
   * A check that throws refuses the request (503): a token not known to be good is not used.
   * @default undefined
   */
  readonly revoked?: (token: RevocationQuery) => boolean | Promise<boolean>;
  /**
   * Serves `POST /v1/events/{provider}` for each provider given, e.g.
   * `{ ses: sesEvents({ topicArns }), resend: resendEvents({ secret }) }`: delivery events verified by the
   * provider's signature, recorded against the message they are about, suppressing a destination that
   * hard-bounced or complained. Bodies are held to `maxBodyBytes`. Without it the route does not exist.
   * @default undefined
   */
  readonly deliveryEvents?: DeliveryEventVerifiers;
  /**
   * Serves the human queue's web workspace at `/queue` (docs/queue.md): people sign in with an
   * operator token and work the queue in a browser. Needs `operatorSecret`. `true` takes the defaults.
   * @default undefined (no workspace)
   */
  readonly workspace?: boolean | RelayWorkspaceOptions;
}

/**
 * The relay: the outbox behind HTTP, for agents that hold a task token and nothing else.
 *
 * @example
 * import { createRelay } from "formletter/relay";
 * const relay = createRelay({ outbox, secret });
 * await relay.listen({ port: 8787 });
 * process.once("SIGTERM", async () => { await relay.close(); await outbox.close(); });
 */
export interface Relay {
  /** Starts the HTTP server (loopback, port 8787 unless told otherwise) and resolves once it listens. */
  listen(options?: ListenOptions): Promise<RelayAddress>;
  /** The app as a fetch handler, to mount in a server you run instead of `listen()`. */
  readonly fetch: (request: Request) => Response | Promise<Response>;
  /** A token for one ticket and one run, expiring after `ttl` seconds (default 900, at most 86,400). */
  mintTaskToken(input: { ticketId: string; runId: string; ttl?: number }): Promise<string>;
  /** A token for a person working the queue (default 8 hours, at most 7 days); needs `operatorSecret`. */
  mintOperatorToken(input: { operator: string; ttl?: number }): Promise<string>;
  /** The metrics in the Prometheus text format, as `GET /metrics` serves them. */
  metrics(): Promise<string>;
  /**
   * Stops the server: no new connections, requests in progress finish (up to the request timeout), and
   * pending audit writes commit. The outbox stays open: close it after, as its owner.
   */
  close(): Promise<void>;
}

/**
 * Each relay's hono app, by its fetch handler: the tests read the routes hono actually serves from it,
 * to check that the OpenAPI document lists every one. Weak, so a relay dropped is not kept.
 */
export const relayApps: WeakMap<Relay["fetch"], Hono> = new WeakMap();

function positive(value: unknown, name: string, fallback: number): number {
  const number = value ?? fallback;
  if (typeof number !== "number" || !Number.isInteger(number) || number < 1) {
    throw new RelayError("relay_invalid", `createRelay: ${name} must be a whole number of at least 1`);
  }
  return number;
}

function checkOptions(options: RelayOptions): void {
  const fail = (message: string): never => {
    throw new RelayError("relay_invalid", `createRelay: ${message}`);
  };
  const outbox = options?.outbox;
  if (
    typeof outbox?.handle !== "function" ||
    typeof outbox.records !== "function" ||
    typeof outbox.audit?.append !== "function" ||
    typeof outbox.catalog?.decide !== "function"
  )
    fail("outbox must come from createOutbox (of this version of formletter)");
  const verifiers = options.deliveryEvents;
  if (
    verifiers !== undefined &&
    (typeof verifiers !== "object" ||
      verifiers === null ||
      !Object.entries(verifiers).every(
        ([provider, verifier]) => verifier?.provider === provider && typeof verifier.verify === "function",
      ))
  )
    fail("deliveryEvents must map each provider to its verifier, e.g. { ses: sesEvents({ topicArns }) }");
  if (options.revoked !== undefined && typeof options.revoked !== "function")
    fail("revoked must be a function (token) => boolean, true for a token revoked");
  const origins = options.mcpAllowedOrigins;
  if (origins !== undefined && (!Array.isArray(origins) || !origins.every(isOrigin)))
    fail(
      'mcpAllowedOrigins must list origins as browsers send them, e.g. "https://app.example.com" (scheme, host and port; no path)',
    );
}

/** True for an origin exactly as a browser's Origin header spells it. */
function isOrigin(value: unknown): boolean {
  try {
    return typeof value === "string" && new URL(value).origin === value;
  } catch {
    return false;
  }
}

/**
 * Runs the outbox as its own service, so the agent holds no send credentials and no access to records:
 * it gets a task token for one ticket and run, and can only propose (`POST /v1/proposals`), read its
 * ticket's tools and prompt text, nothing more. People work the human queue with operator tokens.
 * Every refused request is an `access` event in the audit log; `/metrics` serves Prometheus text.
 *
 * @example
 * import { createOutbox } from "formletter";
 * import { createRelay } from "formletter/relay";
 * const outbox = createOutbox({ catalog, load, store, transports });
 * const relay = createRelay({ outbox, secret: process.env.FORMLETTER_SECRET ?? "" });
 * const { url } = await relay.listen({ port: 8787 });
 * const token = await relay.mintTaskToken({ ticketId: "T-1", runId: "run-9", ttl: 600 });
 */
export function createRelay(options: RelayOptions): Relay {
  checkOptions(options);
  const agentSecret = secretBytes(options.secret, "createRelay: secret");
  const operatorSecret =
    options.operatorSecret === undefined
      ? undefined
      : secretBytes(options.operatorSecret, "createRelay: operatorSecret");
  if (operatorSecret !== undefined && Buffer.from(operatorSecret).equals(Buffer.from(agentSecret))) {
    throw new RelayError(
      "relay_invalid",
      "createRelay: operatorSecret must differ from secret, or a task token's minter could mint operator tokens",
    );
  }
  const clock = options.clock ?? Date.now;
  const issuer = options.issuer ?? defaultIssuer;
  const maxBodyBytes = positive(options.maxBodyBytes, "maxBodyBytes", 1_048_576);
  const requestTimeoutMs = positive(options.requestTimeoutMs, "requestTimeoutMs", 10_000);
  const rateMax = positive(options.rateLimit?.max, "rateLimit.max", 120);
  const rateWindow = positive(options.rateLimit?.windowMs, "rateLimit.windowMs", 60_000);
  const refusalAudit = {
    full: positive(options.tokenRefusalAudit?.full, "tokenRefusalAudit.full", 20),
    every: positive(options.tokenRefusalAudit?.every, "tokenRefusalAudit.every", 100),
    windowMs: positive(options.tokenRefusalAudit?.windowMs, "tokenRefusalAudit.windowMs", 60_000),
  };
  const tolerance = options.clockToleranceSeconds ?? 5;
  if (!Number.isInteger(tolerance) || tolerance < 0 || tolerance > 300)
    throw new RelayError(
      "relay_invalid",
      "createRelay: clockToleranceSeconds must be a whole number from 0 to 300",
    );
  const tokenCacheMs = options.tokenCacheMs ?? 30_000;
  if (!Number.isInteger(tokenCacheMs) || tokenCacheMs < 0)
    throw new RelayError("relay_invalid", "createRelay: tokenCacheMs must be a whole number of at least 0");

  const agentKey = secretKey(agentSecret);
  const operatorKey = operatorSecret === undefined ? undefined : secretKey(operatorSecret);
  const agentSigning: SigningKey = { key: agentKey, issuer };
  const operatorSigning: SigningKey | undefined =
    operatorKey === undefined ? undefined : { key: operatorKey, issuer };

  const metrics = createRelayMetrics();
  const { logger } = options;
  const log = (level: keyof RelayLogger, fields: Record<string, unknown>, message: string) => {
    try {
      logger?.[level](fields, message);
    } catch {
      // A logger that fails costs its line, never the relay.
    }
  };
  const requestLog = createRequestLog(logger);
  const accessLog = createAccessLog(options.outbox, clock, () => {
    metrics.auditFailure();
    log("warn", {}, "an access audit event could not be written");
  });
  const verify = createTokenVerifier({
    agentKey,
    operatorKey,
    issuer,
    clock,
    clockToleranceSeconds: tolerance,
    cacheMs: tokenCacheMs,
    cacheSize: 10_000,
  });
  const gate = createGate({
    verify,
    rateLimit: createRateLimiter(rateMax, rateWindow, clock),
    accessLog,
    sampleTokenRefusal: createAuditSampler(refusalAudit, clock),
    metrics,
    maxBodyBytes,
    revoked: options.revoked,
  });
  const queueDepth = createQueueDepth(options.outbox.queue, clock);
  const renderMetrics = async () => {
    try {
      metrics.queueDepth(await queueDepth(), clock());
    } catch {
      // The last depth stays: a store that cannot answer now must not take the other series down with it.
    }
    return metrics.render();
  };

  const app = new Hono();
  const unmatched = (request: Request) => {
    metrics.request("unmatched", 404, 0);
    requestLog(request, "unmatched", 404, 0);
    return problem(404, { code: "not_found" });
  };
  // hono answers HEAD with its GET route; the relay serves exactly the methods its route table, and so
  // its OpenAPI document, lists: a HEAD is a request for an endpoint that does not exist.
  const workspace =
    options.workspace === undefined || options.workspace === false
      ? undefined
      : mountWorkspace({
          outbox: options.outbox,
          verify,
          revoked: options.revoked,
          clock,
          options: options.workspace === true ? {} : options.workspace,
        });
  if (workspace !== undefined && operatorKey === undefined)
    throw new RelayError(
      "relay_invalid",
      "createRelay: workspace needs operatorSecret: people sign in with operator tokens",
    );
  // The workspace's pages are answered beside the API's routes, not among them: the OpenAPI document
  // describes the JSON API only. Without a workspace, no request's URL is parsed for it.
  const inWorkspace = (request: Request) => {
    if (workspace === undefined) return false;
    const path = new URL(request.url).pathname;
    return path === "/queue" || path.startsWith("/queue/");
  };
  const fetch = (request: Request) =>
    inWorkspace(request) && workspace !== undefined
      ? workspace.fetch(request)
      : request.method === "HEAD"
        ? unmatched(request)
        : app.fetch(request);
  relayApps.set(fetch, app);
  const common = {
    outbox: options.outbox,
    gate,
    metrics,
  };
  // The document describes this relay's own routes: the operator ones only where they exist.
  const routes: Route[] = [
    ...serviceRoutes({
      catalogVersion: () => options.outbox.catalog.version,
      renderMetrics,
      routes: () => routes,
    }),
    ...agentRoutes(common),
    ...mcpRoutes(merged(common, { secret: agentSecret, allowedOrigins: options.mcpAllowedOrigins ?? [] })),
    ...(operatorKey === undefined ? [] : operatorRoutes(common)),
    ...(options.deliveryEvents === undefined
      ? []
      : eventRoutes({
          outbox: options.outbox,
          verifiers: options.deliveryEvents,
          metrics,
          maxBodyBytes,
          clock,
        })),
  ];
  mountRoutes(app, routes, { metrics, requestTimeoutMs, log: requestLog });
  app.notFound((c) => unmatched(c.req.raw));
  app.onError(() => {
    log("error", {}, "the relay could not answer a request");
    return problem(500, { code: "internal" });
  });

  let server: Promise<RunningServer> | undefined;
  return {
    fetch,
    async listen(listen = {}) {
      if (server !== undefined)
        throw new RelayError("relay_invalid", "relay.listen: the relay is already listening");
      server = startServer(fetch, merged(listen, { requestTimeoutMs }));
      try {
        const { address } = await server;
        log("info", { url: address.url }, "relay listening");
        return address;
      } catch (error) {
        server = undefined;
        const code = (error as { code?: unknown }).code;
        log("error", { code: typeof code === "string" ? code : "unknown" }, "relay could not listen");
        throw error;
      }
    },
    mintTaskToken: async (input) => signTaskToken(agentSigning, merged(input, { now: clock() })),
    async mintOperatorToken(input) {
      if (operatorSigning === undefined) {
        throw new RelayError(
          "relay_invalid",
          "relay.mintOperatorToken: the relay has no operatorSecret, so it serves no operator endpoints",
        );
      }
      return signOperatorToken(operatorSigning, merged(input, { now: clock() }));
    },
    metrics: renderMetrics,
    async close() {
      const running = await server?.catch(() => undefined);
      server = undefined;
      workspace?.close();
      await running?.close(requestTimeoutMs);
      await accessLog.idle();
      if (running !== undefined) log("info", { url: running.address.url }, "relay stopped");
    },
  };
}
