import type { Catalog } from "../catalog.js";
import type { Decision } from "../decision.js";
import { FormletterError } from "../errors.js";
import { parseProposal } from "../proposal.js";
import type { CollectionSchemas } from "../records.js";
import type { AuditEvent, AuditFilter, OutboundRow, Store } from "../store/store.js";
import { tagsProblem } from "../tags.js";
import type { Transport } from "../transport/transport.js";
import { createBatcher } from "./batcher.js";
import { type DeliveryOutcome, deliverRow, type RetryOptions, settleDelivery } from "./deliver.js";
import { loadRecords } from "./load-records.js";
import { type ApprovalResult, createQueueOperations, type HumanQueue } from "./queue.js";
import { type Recorded, recordDecision } from "./record.js";

/** What `handle()` takes: which ticket, what the model answered, which agent run, and tags for metrics. */
export interface HandleInput {
  readonly ticketId: string;
  /** The model's output: an object or a JSON string. */
  readonly output: unknown;
  /** The agent run that produced the output; `maxPerRun` counts sends per run. */
  readonly runId: string;
  /** Labels for metrics, e.g. `{ category: "damage" }`. At most 20, short strings. */
  readonly tags?: Readonly<Record<string, string>>;
}

/** Where a message stands after `handle()`. */
export interface DeliveryStatus {
  readonly status: OutboundRow["status"];
  readonly attempts: number;
  readonly receiptId?: string;
}

/** What `handle()` returns once the decision is durable (and, in live mode, delivered or failed). */
export interface HandleResult {
  /** The decision, with limits applied: a send over a limit becomes `limit_exceeded`. */
  readonly decision: Decision;
  /** True when an identical proposal was handled before: this is its first result, and nothing was sent. */
  readonly duplicate: boolean;
  readonly auditId: string;
  /** The queue item a human will see: escalations, approvals, limits reached, failed deliveries. */
  readonly queueItemId?: string;
  readonly outboundId?: string;
  readonly delivery?: DeliveryStatus;
}

/** Options of {@link createOutbox}. */
export interface OutboxOptions<S extends CollectionSchemas> {
  readonly catalog: Catalog<S>;
  /** Loads a ticket's records from your system of record. A throw or invalid records is `records_invalid`. */
  readonly load: (ticketId: string) => unknown;
  readonly store: Store;
  /** One transport per channel the catalog uses. Optional in shadow mode. */
  readonly transports?: Readonly<Partial<Record<"email" | "sms" | "chat" | "whatsapp", Transport>>>;
  /** "shadow" decides, limits and audits, and delivers nothing. @default "live" */
  readonly mode?: "live" | "shadow";
  /** Epoch milliseconds now. @default Date.now */
  readonly clock?: () => number;
  /** Most sends of one agent run, across templates. @default 3 */
  readonly maxPerRun?: number;
  readonly retry?: RetryOptions;
  /** How long a deliverer holds a message before another (after a crash) may take it. @default 300000 */
  readonly leaseMs?: number;
}

/** The runtime: decide, limit, record durably, deliver, and the human queue. */
export interface Outbox {
  handle(input: HandleInput): Promise<HandleResult>;
  readonly queue: HumanQueue;
  /** Delivers messages a crash left pending (once each) and retries none that failed for good. */
  flush(): Promise<{ readonly delivered: number; readonly failed: number }>;
  readonly audit: {
    /** Streams audit events in time order. `since`/`until` take a Date or epoch milliseconds. */
    query(
      filter?: Omit<AuditFilter, "since" | "until"> & { since?: Date | number; until?: Date | number },
    ): AsyncIterable<AuditEvent>;
  };
  /** Waits for work in flight, then closes transports and the store. */
  close(): Promise<void>;
}

const maxRawOutput = 8_192;

/**
 * Creates the outbox: `handle()` loads a ticket's records, decides, then in one transaction applies
 * idempotency and limits and writes the audit event and the outbound row or queue item; only then does
 * it deliver. A crash after the commit is recovered by `flush()`.
 *
 * @example
 * import { createOutbox, memoryStore, memoryTransport } from "formletter";
 * const outbox = createOutbox({ catalog, load: (id) => db.recordsFor(id), store: memoryStore(), transports: { email: memoryTransport() } });
 * const result = await outbox.handle({ ticketId: "T-1", output, runId: "run-9", tags: { category: "damage" } });
 */
export function createOutbox<S extends CollectionSchemas>(options: OutboxOptions<S>): Outbox {
  const { catalog, store } = options;
  const mode = options.mode ?? "live";
  const clock = options.clock ?? Date.now;
  const maxPerRun = options.maxPerRun ?? 3;
  const leaseMs = options.leaseMs ?? 300_000;
  const retry = {
    attempts: options.retry?.attempts ?? 3,
    baseDelayMs: options.retry?.baseDelayMs ?? 250,
    maxDelayMs: options.retry?.maxDelayMs ?? 5_000,
  };
  checkOptions(options, mode, maxPerRun, retry.attempts);
  const transports = options.transports ?? {};
  const batcher = createBatcher(store);
  const operations = createQueueOperations(store, batcher, clock, mode);
  let closing = false;
  let closed: Promise<void> | undefined;
  // Calls in progress: close() waits for them, so no accepted work meets a closed store.
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: () => Promise<T>): Promise<T> => {
    if (closing) return Promise.reject(new FormletterError("outbox_invalid", "the outbox is closed"));
    const running = work();
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
    return running;
  };

  const deliver = async (
    row: OutboundRow,
  ): Promise<DeliveryOutcome & { queueItemId: string | undefined }> => {
    // A row another catalog (or an earlier version of this one) wrote may be on a channel this outbox has
    // no transport for: it fails to a person, with the message attached, rather than failing flush().
    const transport = transports[row.message.channel] as Transport | undefined;
    const outcome: DeliveryOutcome =
      transport === undefined
        ? {
            status: "failed",
            attempts: row.attempts,
            ms: 0,
            errors: [
              `no transport for channel "${row.message.channel}": add transports.${row.message.channel} to createOutbox`,
            ],
          }
        : await deliverRow(row, transport, retry, clock);
    const queueItemId = await batcher.run((tx) =>
      settleDelivery(tx, row, outcome, clock(), transport?.name ?? "none"),
    );
    return { ...outcome, queueItemId };
  };

  const handle = async (input: HandleInput): Promise<HandleResult> => {
    const { ticketId, runId, tags } = checkInput(input);
    return track(() => handleChecked(input, ticketId, runId, tags));
  };

  const handleChecked = async (
    input: HandleInput,
    ticketId: string,
    runId: string,
    tags: Record<string, string>,
  ): Promise<HandleResult> => {
    const started = clock();
    const loaded = await loadRecords(options.load, ticketId);
    const loadMs = clock() - started;
    // Parsed once: decide() gets the parsed proposal, the audit log its note-free copy.
    const proposal = proposalOf(input.output);
    const decision: Decision = loaded.ok
      ? catalog.decide(proposal?.decide ?? input.output, loaded.records)
      : { outcome: "escalate", reason: "records_invalid", detail: loaded.problem, ticketId };
    const decided = clock();
    const templateId = decision.template;
    const recorded: Recorded = await batcher.run((tx) =>
      recordDecision(tx, {
        decision,
        template: templateId === undefined ? undefined : catalog.template(templateId),
        ticketId,
        runId,
        at: decided,
        mode,
        maxPerRun,
        leaseUntil: decided + leaseMs,
        data: {
          tags,
          output: rawOutput(input.output),
          proposal: proposal?.audit ?? null,
          catalogVersion: catalog.version,
          timings: { loadMs, decideMs: decided - started - loadMs },
        },
      }),
    );
    const result = {
      decision: recorded.decision,
      duplicate: recorded.duplicate,
      auditId: recorded.auditId,
      ...(recorded.queueItemId !== undefined ? { queueItemId: recorded.queueItemId } : {}),
      ...(recorded.outboundId !== undefined ? { outboundId: recorded.outboundId } : {}),
    };
    if (recorded.outbound !== undefined) {
      const outcome = await deliver(recorded.outbound);
      return {
        ...result,
        ...(outcome.queueItemId !== undefined ? { queueItemId: outcome.queueItemId } : {}),
        delivery: {
          status: outcome.status,
          attempts: outcome.attempts,
          ...(outcome.status === "delivered" ? { receiptId: outcome.receiptId } : {}),
        },
      };
    }
    if (recorded.outboundId !== undefined) {
      const row = await store.getOutbound(recorded.outboundId);
      if (row !== undefined) {
        return {
          ...result,
          delivery: {
            status: row.status,
            attempts: row.attempts,
            ...(row.receiptId ? { receiptId: row.receiptId } : {}),
          },
        };
      }
    }
    return result;
  };

  const queue: HumanQueue = {
    ...operations,
    approve: (id, actor) => track(() => approveAndDeliver(id, actor)),
  };

  /** Approves, then delivers the approved draft at once (the CLI leaves that to the next flush). */
  async function approveAndDeliver(
    id: string,
    actor: Parameters<HumanQueue["approve"]>[1],
  ): Promise<ApprovalResult> {
    const approval = await operations.approve(id, actor);
    if (!approval.approvedNow || approval.outbound === undefined || mode === "shadow") return approval;
    const now = clock();
    const [row] = await store.claimDue({
      now,
      leaseUntil: now + leaseMs,
      limit: 1,
      id: approval.outbound.id,
    });
    if (row === undefined) return approval;
    await deliver(row);
    return { ...approval, outbound: await store.getOutbound(row.id) };
  }

  return {
    handle,
    queue,
    flush: () =>
      track(async () => {
        let delivered = 0;
        let failed = 0;
        if (mode === "shadow") return { delivered, failed };
        for (;;) {
          const now = clock();
          const due = await store.claimDue({ now, leaseUntil: now + leaseMs, limit: 64 });
          if (due.length === 0) break;
          const outcomes = await Promise.all(due.map((row) => deliver(row)));
          for (const outcome of outcomes) outcome.status === "delivered" ? delivered++ : failed++;
        }
        return { delivered, failed };
      }),
    audit: {
      query: (filter = {}) => {
        const { since, until, ...rest } = filter;
        return store.queryAudit({
          ...rest,
          ...(since !== undefined ? { since: +since } : {}),
          ...(until !== undefined ? { until: +until } : {}),
        });
      },
    },
    close() {
      closed ??= (async () => {
        closing = true;
        while (inFlight.size > 0) await Promise.all(inFlight);
        await batcher.idle();
        for (const transport of new Set(Object.values(transports))) await transport?.close?.();
        await store.close();
      })();
      return closed;
    },
  };
}

function checkOptions<S extends CollectionSchemas>(
  options: OutboxOptions<S>,
  mode: string,
  maxPerRun: number,
  attempts: number,
): void {
  const fail = (message: string): never => {
    throw new FormletterError("outbox_invalid", `createOutbox: ${message}`);
  };
  if (typeof options.catalog?.decide !== "function") fail("catalog must come from createCatalog");
  if (typeof options.load !== "function") fail("load must be a function (ticketId) => ticket records");
  if (typeof options.store?.transaction !== "function")
    fail("store must be a store, e.g. memoryStore() or sqliteStore(file)");
  if (mode !== "live" && mode !== "shadow") fail('mode must be "live" or "shadow"');
  if (!Number.isInteger(maxPerRun) || maxPerRun < 1) fail("maxPerRun must be a whole number of at least 1");
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > 20)
    fail("retry.attempts must be a whole number from 1 to 20");
  if (mode === "live") {
    for (const template of options.catalog.templates) {
      const transport = options.transports?.[template.channel];
      if (typeof transport?.deliver !== "function") {
        fail(
          `template "${template.id}" sends on "${template.channel}", but transports.${template.channel} is missing`,
        );
      }
    }
  }
}

function checkInput(input: HandleInput): { ticketId: string; runId: string; tags: Record<string, string> } {
  const fail = (message: string): never => {
    throw new FormletterError("handle_invalid", `handle: ${message}`);
  };
  if (typeof input !== "object" || input === null) fail("pass { ticketId, output, runId, tags? }");
  const { ticketId, runId, tags = {} } = input;
  if (typeof ticketId !== "string" || ticketId === "" || ticketId.length > 200)
    fail("ticketId must be a non-empty string of at most 200 characters");
  if (typeof runId !== "string" || runId === "" || runId.length > 200)
    fail("runId must be a non-empty string of at most 200 characters (the agent run's id)");
  const problem = tagsProblem(tags);
  if (problem !== undefined) fail(problem);
  return { ticketId, runId, tags: Object.fromEntries(Object.entries(tags)) };
}

/** The raw output for the audit log, capped: enough to see what the model said, never unbounded. */
function rawOutput(output: unknown): string {
  let text: string;
  try {
    text = typeof output === "string" ? output : (JSON.stringify(output) ?? String(output));
  } catch {
    text = "[output could not be serialised]";
  }
  return text.length > maxRawOutput ? `${text.slice(0, maxRawOutput)}…[${text.length} characters]` : text;
}

/**
 * The output parsed once, as decide() reads it again (cheaply: an object, no JSON to parse) and as the
 * audit log keeps it (without the note, which can be long and is kept, capped, with the decision).
 * Undefined when it is not a proposal: decide() then reports why from the output itself.
 */
function proposalOf(output: unknown): { decide: unknown; audit: unknown } | undefined {
  const parsed = parseProposal(output);
  if (!parsed.ok) return undefined;
  const proposal = parsed.proposal;
  if (proposal.kind === "escalate") {
    return {
      decide:
        proposal.note === undefined
          ? { escalate: proposal.code }
          : { escalate: proposal.code, note: proposal.note },
      audit: { escalate: proposal.code },
    };
  }
  const parsedProposal = { template: proposal.template, slots: Object.fromEntries(proposal.slots) };
  return { decide: parsedProposal, audit: parsedProposal };
}
