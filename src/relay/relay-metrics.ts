import type { Metric, Registry } from "prom-client";
import type { Decision } from "../core/decision/decision.js";
import { lazyDependency } from "../core/lazy-dependency.js";
import { createRegistry } from "./prometheus.js";
import type { QueueDepth } from "./queue-depth.js";

// From 1 ms to 10 s: a proposal normally takes a few milliseconds (one group commit); the top buckets
// show a slow loader, store or transport.
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// Loaded when a relay is created, not when formletter/relay is imported: an agent that only uses the
// relay's client never needs it (nor the OpenTelemetry API it loads for exemplars).
const promClient = lazyDependency<typeof import("prom-client")>("prom-client");

let processMetrics: Registry | undefined;

/**
 * prom-client's default process metrics, collected once per process in a registry of formletter's own
 * (never prom-client's global one): each collector starts an event-loop delay timer and a GC observer
 * that nothing stops, so one a relay would add up in a process that creates many.
 */
function sharedProcessMetrics(): Registry {
  if (processMetrics === undefined) {
    const { collectDefaultMetrics, Registry } = promClient();
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
    // prom-client keeps gauges named like counters (nodejs_active_handles_total beside
    // nodejs_active_handles by type, for older dashboards). Prometheus's linter refuses a gauge ending in
    // _total, and each has a labelled gauge saying the same, so they are left out. (Types declare `type`
    // an enum; it is a string.)
    for (const metric of processMetrics.getMetricsAsArray())
      if (String(metric.type) !== "counter" && metric.name.endsWith("_total"))
        processMetrics.removeSingleMetric(metric.name);
  }
  return processMetrics;
}

/**
 * The relay's series, counted in this process since it started, then prom-client's default process
 * metrics (CPU, memory, event loop lag, file descriptors, GC): the ones every Node dashboard reads.
 * They are registered in a registry of this relay's own, so an application's registries and a second
 * relay in the same process each keep theirs without clashing.
 */
export function createRelayMetrics() {
  const registry = createRegistry();
  const processRegistry = new (promClient().Registry)();
  for (const metric of sharedProcessMetrics().getMetricsAsArray())
    processRegistry.registerMetric(metric as unknown as Metric);
  const requests = registry.counter(
    "formletter_relay_requests_total",
    "HTTP requests answered, by route and status.",
    ["route", "status"],
  );
  const latency = registry.histogram(
    "formletter_relay_request_duration_seconds",
    "Time from receiving a request to its answer, by route.",
    ["route"],
    latencyBuckets,
  );
  const decisions = registry.counter(
    "formletter_relay_decisions_total",
    'Proposals decided, by outcome, escalation reason ("none" for sends) and template ("none" when no template was named).',
    ["outcome", "reason", "template"],
  );
  const duplicates = registry.counter(
    "formletter_relay_duplicates_total",
    "Proposals identical to one handled before: the first result was returned and nothing was sent.",
    ["template"],
  );
  const deliveries = registry.counter(
    "formletter_relay_deliveries_total",
    "Messages the relay delivered or tried to, by final status (delivered, failed, pending, shadow).",
    ["status"],
  );
  const limits = registry.counter(
    "formletter_relay_limit_events_total",
    'Limits reached: "template" for a per-ticket, per-day or per-run limit (limit_exceeded), "ceiling" for a value ceiling, "rate" for a token over its request rate.',
    ["limit"],
  );
  const firstContacts = registry.counter(
    "formletter_relay_first_contacts_total",
    "Sends that were the first the catalog accepted to their destination (first contact), by template.",
    ["template"],
  );
  const refusals = registry.counter(
    "formletter_relay_refusals_total",
    "Requests refused before any work: bad or missing tokens, rate limits, bodies that are not JSON or too large.",
    ["refusal"],
  );
  const unaudited = registry.counter(
    "formletter_relay_refusals_unaudited_total",
    "Refusals counted here but left out of the audit log: token refusals past the sampled share, and a token's rate-limit refusals after the first of a window.",
    ["refusal"],
  );
  const deliveryEvents = registry.counter(
    "formletter_relay_delivery_events_total",
    "Delivery events providers reported, verified, by provider, status (delivered, bounced_hard, bounced_soft, complained, failed) and outcome (recorded, unmatched: no message with its id; replayed: counted before).",
    ["provider", "status", "outcome"],
  );
  const auditFailures = registry.counter(
    "formletter_relay_audit_write_failures_total",
    "Access audit events the store failed to write.",
  );
  let depth: readonly (readonly [Record<string, string>, number])[] = [];
  registry.gauge(
    "formletter_relay_queue_depth",
    "Human-queue items waiting, by status (open, claimed), as of the last scrape.",
    ["status"],
    () => depth,
  );
  let oldestSeconds = 0;
  registry.gauge(
    "formletter_queue_oldest_seconds",
    "Age of the oldest human-queue item waiting (open or claimed), in seconds, as of the last scrape; 0 when none waits.",
    [],
    () => [[{}, oldestSeconds]],
  );

  return {
    request(route: string, status: number, seconds: number): void {
      requests.inc({ route, status: String(status) });
      latency.observe({ route }, seconds);
    },
    decision(decision: Decision, duplicate: boolean, deliveryStatus: string | undefined): void {
      const template = decision.template ?? "none";
      if (duplicate) {
        duplicates.inc({ template });
        return;
      }
      const reason = decision.outcome === "escalate" ? decision.reason : "none";
      decisions.inc({ outcome: decision.outcome, reason, template });
      if (decision.outcome === "send" && decision.firstContact !== undefined) firstContacts.inc({ template });
      if (decision.outcome === "escalate" && decision.reason === "limit_exceeded")
        limits.inc({ limit: decision.limit === "ceiling" ? "ceiling" : "template" });
      if (deliveryStatus !== undefined) deliveries.inc({ status: deliveryStatus });
    },
    delivery(status: string): void {
      deliveries.inc({ status });
    },
    deliveryEvent(provider: string, status: string, outcome: string): void {
      deliveryEvents.inc({ provider, status, outcome });
    },
    refusal(refusal: string): void {
      refusals.inc({ refusal });
      if (refusal === "rate_limited") limits.inc({ limit: "rate" });
    },
    /** A refusal counted but not audited. */
    unaudited(refusal: string): void {
      unaudited.inc({ refusal });
    },
    auditFailure(): void {
      auditFailures.inc();
    },
    /** The queue as read at `now`: the depth by status, and the oldest waiting item's age. */
    queueDepth(read: QueueDepth, now: number): void {
      depth = Object.entries(read.counts).map(([status, count]) => [{ status }, count] as const);
      // A clock that stepped back must not show a negative age.
      oldestSeconds = read.oldestAt === undefined ? 0 : Math.max(0, (now - read.oldestAt) / 1000);
    },
    /** The exposition: the relay's families first, then the process's; each family once. */
    async render(): Promise<string> {
      // prom-client puts an empty line between families; the relay's writer does not, so neither does this.
      return registry.render() + (await processRegistry.metrics()).replace(/\n{2,}/g, "\n");
    },
  };
}

/** The relay's metrics. */
export type RelayMetrics = ReturnType<typeof createRelayMetrics>;
