import type { KeyObject } from "node:crypto";
import type { Attributes } from "@opentelemetry/api";
import type { Catalog } from "../core/decision/catalog.js";
import { type Decision, escalate } from "../core/decision/decision.js";
import { type ParsedOutput, parseProposal } from "../core/decision/proposal.js";
import { type Deferred, deferred } from "../core/deferred.js";
import type { CollectionSchemas } from "../core/definition/define-records.js";
import { tagsProblem } from "../core/definition/tags.js";
import type { Template } from "../core/definition/template-types.js";
import { FormletterError, type OutboxWrites } from "../core/errors.js";
import { merged } from "../core/merged.js";
import { decisionAttributes, inSpan, spanNames } from "../core/telemetry.js";
import type { DeliveryEvent } from "../providers/events/delivery-event.js";
import type {
  AuditEvent,
  AuditFilter,
  OutboundRow,
  Store,
  StoreTransaction,
  SuppressionPage,
} from "../store/store.js";
import type { Transport } from "../transport/transport.js";
import { createBatcher } from "./batcher.js";
import { contactKeyFrom } from "./contact-key.js";
import {
  type DeliveryOutcome,
  deliverRow,
  type RetryOptions,
  settleDelivery,
  settleSuppressed,
} from "./deliver.js";
import { type DeliveryEventOutcome, recordDeliveryEvent } from "./delivery-status.js";
import { destinationHash } from "./first-contact.js";
import { loadRecords } from "./load-records.js";
import { outageError, recordWithRetry } from "./outage.js";
import {
  checkReply,
  type PersonReplyInput,
  type PersonReplyResult,
  recordPersonReply,
  refusedReply,
  replyWarning,
} from "./person-reply.js";
import { type ApprovalResult, createQueueOperations, type HumanQueue } from "./queue.js";
import { type Recorded, type Recording, recordDecision } from "./record-decision.js";
import { type LiftResult, liftSuppression, suppressionFor } from "./suppression.js";

/** A ticket's records as the outbox loads them, or why there are none. */
export type LoadedRecords =
  | { readonly ok: true; readonly records: unknown }
  | { readonly ok: false; readonly problem: string };

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
  /**
   * The secret destinations are hashed with (HMAC-SHA256) for first contact: at least 32 bytes, the
   * same for every instance of the outbox, kept like any secret. Without it, destinations are not
   * recorded and `firstContact: "hold"` is refused at start-up (an unkeyed hash of an address is undone
   * by hashing guesses).
   */
  readonly contactKey?: string | Uint8Array;
  /** What the first message to a new destination does, for templates that do not say. @default "send" */
  readonly firstContact?: "hold" | "send";
  readonly retry?: RetryOptions;
  /**
   * How long a deliverer holds a message before another may take it. A message its deliverer still holds
   * when the lease runs out (it crashed, or lost the store) is in doubt: `flush()` hands it to a person,
   * or resends it with its key to a transport that `deduplicatesByKey`. @default 300000
   */
  readonly leaseMs?: number;
  /**
   * How long, after a delivery, the outbox keeps trying to record its outcome while the store is
   * unavailable, holding the outcome in memory, before it gives up (the call then fails with a
   * `StoreUnavailableError` saying the message was delivered and not recorded). Less than `leaseMs`.
   * @default 60000
   */
  readonly recordRetryMs?: number;
  /** How long the loader may take before the ticket escalates as `records_invalid`. @default 30000 */
  readonly loadTimeoutMs?: number;
}

/** The runtime: decide, limit, record durably, deliver, and the human queue. */
export interface Outbox {
  handle(input: HandleInput): Promise<HandleResult>;
  /** The catalog it decides with: a service in front (the relay) builds tools and prompt text from it. */
  readonly catalog: Catalog;
  /**
   * A ticket's records as `handle()` loads them: checked to be that ticket's, within `loadTimeoutMs`,
   * read once into a plain copy. Never throws: a loader that fails gives `{ ok: false, problem }`.
   */
  records(ticketId: string): Promise<LoadedRecords>;
  readonly queue: HumanQueue;
  /**
   * Sends a person's own reply to a waiting queue item's recipient (the one its decision resolved from
   * the ticket's records) through the same transports, exactly once (a double submit sends once),
   * closing the item as resolved "replied"; audited with `author: "person"`, the operator, the text and
   * the ticket's records, for `formletter mine --audit`. Bad input is a refusal, never a throw.
   */
  sendPersonReply(input: PersonReplyInput): Promise<PersonReplyResult>;
  /**
   * Delivers messages left pending (approved, or never tried) once each, and retries none that failed
   * for good. A message left `delivering` by a deliverer that stopped or lost the store is never sent
   * again blindly: it goes to the human queue as in doubt (counted in `failed`), or, to a transport that
   * `deduplicatesByKey`, is sent again with its idempotency key.
   */
  flush(): Promise<{ readonly delivered: number; readonly failed: number }>;
  readonly audit: {
    /** Streams audit events in time order. `since`/`until` take a Date or epoch milliseconds. */
    query(
      filter?: Omit<AuditFilter, "since" | "until"> & { since?: Date | number; until?: Date | number },
    ): AsyncIterable<AuditEvent>;
    /**
     * Appends an event of your own (e.g. `access`, for a request a service in front refused) to the same
     * log, grouped into the outbox's commits; resolves with its id once durable.
     */
    append(event: Omit<AuditEvent, "id">): Promise<string>;
  };
  /**
   * Records delivery events a provider reported (verified by the relay's `/v1/events/{provider}`, or by
   * your own route with `formletter/providers`' verifiers): each tied to its outbound row by receipt, a
   * replay counted once, a hard bounce or complaint suppressing the destination (needs `contactKey`).
   */
  recordDeliveryEvents(events: readonly DeliveryEvent[]): Promise<DeliveryEventOutcome[]>;
  /** Destinations suppressed by a hard bounce or a complaint, as keyed hashes; a person lifts them. */
  readonly suppressions: {
    list(filter?: { limit?: number; cursor?: string }): Promise<SuppressionPage>;
    /** Lifts one (its full hash, as `list` gives it), audited with `by`; a later decision sends again. */
    lift(destination: string, actor: { by: string; note?: string }): Promise<LiftResult>;
  };
  /** Waits for work in flight, then closes transports and the store. */
  close(): Promise<void>;
}

const maxRawOutput = 8_192;

/** How a delivery ended, and the queue item a failed one opened. */
interface Delivered {
  readonly outcome: DeliveryOutcome;
  readonly queueItemId: string | undefined;
}

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
  const recordRetryMs = options.recordRetryMs ?? Math.min(60_000, Math.floor(leaseMs / 2));
  const loadTimeoutMs = options.loadTimeoutMs ?? 30_000;
  const retry = {
    attempts: options.retry?.attempts ?? 3,
    baseDelayMs: options.retry?.baseDelayMs ?? 250,
    maxDelayMs: options.retry?.maxDelayMs ?? 5_000,
  };
  checkOptions(options, mode, maxPerRun, retry.attempts);
  checkTimes(leaseMs, recordRetryMs, loadTimeoutMs);
  const transports = options.transports ?? {};
  // Calls in progress: close() waits for them, so no accepted work meets a closed store; the batcher
  // syncs a call's commits on the event loop only while it is alone (see BatcherOptions.alone).
  // A count, not a set of the calls' promises: a promise more a call to tell when it settled.
  let inFlight = 0;
  let drained: Deferred | undefined;
  const batcher = createBatcher(store, { alone: () => inFlight <= 1 });
  const contactKey = contactKeyOf(options);
  const holdsFirst = (template: Template) => (template.firstContact ?? options.firstContact) === "hold";
  const operations = createQueueOperations(store, batcher, clock, mode, contactKey, {
    catalogVersion: catalog.version,
    templateVersion: (id) => catalog.template(id)?.version,
  });
  let closing = false;
  let closed: Promise<void> | undefined;
  const track = <T>(work: () => Promise<T>): Promise<T> => {
    if (closing) return Promise.reject(new FormletterError("outbox_invalid", "the outbox is closed"));
    const running = work();
    inFlight++;
    running.then(settled, settled);
    return running;
  };
  const settled = () => {
    inFlight--;
    if (inFlight === 0 && drained !== undefined) {
      drained.resolve();
      drained = undefined;
    }
  };

  /**
   * Delivers a row its caller holds, as found (see Store.claimDue): a `pending` row is sent; a
   * `delivering` one is in doubt and sent again only to a transport that deduplicates by key. The outcome
   * is then recorded, retried while the store is unavailable (see recordWithRetry); if that fails, the
   * error says the message went out (or not) and its outcome was not recorded. With a contact key, a
   * row whose destination is suppressed is not sent (see suppressionGate), unless `suppressionChecked`:
   * the transaction that wrote or released the row, in this same call, read the suppression already.
   */
  const deliver = async (
    row: OutboundRow,
    call: string,
    inDoubt: boolean,
    auditId?: string,
    markAtCommit = false,
    suppressionChecked = false,
  ): Promise<Delivered> => {
    // A row another catalog (or an earlier version of this one) wrote may be on a channel this outbox has
    // no transport for: it fails to a person, with the message attached, rather than failing flush().
    const transport = transports[row.message.channel] as Transport | undefined;
    const resend = !inDoubt || transport?.deduplicatesByKey === true;
    let outcome: DeliveryOutcome;
    if (transport === undefined) {
      outcome = {
        status: "failed",
        attempts: row.attempts,
        ms: 0,
        errors: [
          `no transport for channel "${row.message.channel}": add transports.${row.message.channel} to createOutbox`,
        ],
      };
    } else if (!resend) {
      outcome = { status: "in_doubt", attempts: row.attempts, ms: 0, errors: [] };
    } else {
      if (contactKey !== undefined && !suppressionChecked) {
        const blocked = await suppressionGate(contactKey, row, transport.name, call, auditId);
        if (blocked !== undefined) return blocked;
      }
      outcome = await deliverRow(row, transport, retry, clock);
    }
    const resentInDoubt = inDoubt && outcome.status !== "in_doubt";
    // What the call wrote and sent, for an error only: built when one is thrown.
    const writes = (): OutboxWrites => {
      const written: { -readonly [K in keyof OutboxWrites]: OutboxWrites[K] } = {
        decision: "written",
        delivery:
          transport !== undefined && (outcome.status === "delivered" || outcome.status === "failed")
            ? outcome.status
            : "not_attempted",
        outcome: "not_written",
      };
      if (auditId !== undefined) written.auditId = auditId;
      written.outboundId = row.id;
      written.key = row.key;
      if (outcome.status === "delivered") written.receiptId = outcome.receiptId;
      return written;
    };
    const settle = (tx: StoreTransaction) =>
      settleDelivery(tx, row, outcome, clock(), transport?.name ?? "none", resentInDoubt);
    // A delivered mark may be handed back once committed, before its sync (see markCommitted). A failed or
    // in-doubt outcome opens a queue item a person must see: that waits until it is on disk.
    const atCommit = markAtCommit && outcome.status === "delivered";
    try {
      const queueItemId = await recordWithRetry(
        () =>
          atCommit ? markCommitted(settle, call, row.id, writes) : transaction("settle_delivery", settle),
        recordRetryMs,
      );
      return { outcome, queueItemId };
    } catch (error) {
      throw outageError(error, call, writes());
    }
  };

  /**
   * The last step before a claimed row goes to its transport: reads the destination's suppression in a
   * transaction that, when it finds one, also settles the row (failed, audited, a `destination_suppressed`
   * queue item holding the message) and sends nothing. One read when the destination is not suppressed,
   * through the group commit: the checks of a flush()'s batch of rows commit together.
   */
  const suppressionGate = async (
    key: KeyObject,
    row: OutboundRow,
    transportName: string,
    call: string,
    auditId: string | undefined,
  ): Promise<Delivered | undefined> => {
    const destination = destinationHash(key, row.message);
    const queueItemId = await transaction("check_suppression", async (tx) => {
      const suppression = await tx.getSuppression(destination);
      return suppression === undefined
        ? undefined
        : settleSuppressed(tx, row, suppression, clock(), transportName);
    }).catch((error: unknown) => {
      throw outageError(error, call, {
        decision: "written",
        delivery: "not_attempted",
        outcome: "not_written",
        ...(auditId === undefined ? {} : { auditId }),
        outboundId: row.id,
        key: row.key,
      });
    });
    if (queueItemId === undefined) return undefined;
    const errors = ["not sent: the destination is suppressed (a hard bounce or a complaint)"];
    return { outcome: { status: "failed", attempts: row.attempts, ms: 0, errors }, queueItemId };
  };

  // Delivered marks handed back at commit whose sync is still running: flush() and close() wait for them,
  // and report one that could not be made durable (the row may be found `delivering`, in doubt).
  const unsyncedMarks = new Set<Promise<void>>();
  let markFailure: unknown;
  /**
   * Records a delivered outcome like `transaction("settle_delivery", …)`, but returns once its group has
   * committed, without waiting for the commit's sync (on a store that syncs after committing). Still
   * thrown: every failure to write the mark (an outage), as before. What changes is only the crash
   * window: if the machine loses power before the sync, the mark is lost with the other unsynced commits,
   * and the row stays `delivering` until its lease ends, then is in doubt, as after a crash between
   * delivery and the mark. A process crash loses nothing: the commit is in the WAL, in the OS's cache.
   */
  const markCommitted = (
    settle: (tx: StoreTransaction) => Promise<string | undefined>,
    call: string,
    outboundId: string,
    writes: () => OutboxWrites,
  ): Promise<string | undefined> =>
    transactionSpan("settle_delivery", () =>
      batcher.runCommitted(settle).then(({ value, durable }) => {
        // One watch a group: its marks share one promise of durability, and the first mark's watch, set
        // first, is the one whose failure was reported when each mark had its own.
        if (!watchedDurables.has(durable)) {
          watchedDurables.add(durable);
          const synced: Promise<void> = durable
            .catch((error: unknown) => {
              markFailure ??= outageError(error, `${call} (outbound ${outboundId})`, writes());
            })
            .finally(() => unsyncedMarks.delete(synced));
          unsyncedMarks.add(synced);
        }
        return value;
      }),
    );
  const watchedDurables = new WeakSet<Promise<void>>();
  /** Waits for the delivered marks handed back so far before their sync; throws (once) if one failed. */
  const marksSynced = async (): Promise<void> => {
    if (unsyncedMarks.size > 0) await Promise.all(unsyncedMarks);
    const failure = markFailure;
    markFailure = undefined;
    if (failure !== undefined) throw failure;
  };

  // The spans' attributes, made once: each is the same for every call.
  const handleAttributes: Attributes = { "formletter.mode": mode };
  const transactionAttributes = new Map<string, Attributes>();
  const handle = (input: HandleInput): Promise<HandleResult> => {
    let checked: ReturnType<typeof checkInput>;
    try {
      checked = checkInput(input);
    } catch (error) {
      return Promise.reject(error);
    }
    return track(() =>
      inSpan(spanNames.handle, handleAttributes, "handle failed", (span) => {
        const handling = handleChecked(input, checked);
        if (!span.isRecording()) return handling;
        return handling.then((result) => {
          span.setAttributes(resultAttributes(result));
          return result;
        });
      }),
    );
  };

  /** A transaction through the batcher, inside its own span: which store, and what it writes. */
  const transaction = <T>(operation: string, work: (tx: StoreTransaction) => Promise<T>): Promise<T> =>
    transactionSpan(operation, () => batcher.run(work));
  /** The span of one store transaction: which store, and what it writes. */
  const transactionSpan = <T>(operation: string, run: () => Promise<T>): Promise<T> =>
    inSpan(
      spanNames.transaction,
      () => transactionAttributesOf(operation),
      "the store transaction failed",
      run,
    );
  const transactionAttributesOf = (operation: string): Attributes => {
    let attributes = transactionAttributes.get(operation);
    if (attributes === undefined) {
      attributes = { "formletter.store": store.name, "formletter.store.operation": operation };
      transactionAttributes.set(operation, attributes);
    }
    return attributes;
  };

  const handleChecked = async (
    input: HandleInput,
    { ticketId, runId, tags }: { ticketId: string; runId: string; tags: Record<string, string> },
  ): Promise<HandleResult> => {
    const started = clock();
    // Records the loader returns as they are come back at once: no await, no turn of the queue.
    const loading = loadRecords(options.load, ticketId, loadTimeoutMs);
    const loaded = loading instanceof Promise ? await loading : loading;
    const loadMs = clock() - started;
    // Parsed once, by the catalog: decide() takes the parsed output, the audit log a note-free copy. A
    // catalog of an older copy of formletter has no parse(): it is handed the output as it came.
    const parsed = typeof catalog.parse === "function" ? catalog.parse(input.output) : undefined;
    const decision: Decision = loaded.ok
      ? catalog.decide(parsed ?? input.output, loaded.records)
      : escalate({
          reason: "records_invalid",
          detail: loaded.problem,
          ticketId,
          catalogVersion: catalog.version,
        });
    const decided = clock();
    const templateId = decision.template;
    const template = templateId === undefined ? undefined : catalog.template(templateId);
    const notWritten = (error: unknown) =>
      outageError(error, "handle", {
        decision: "not_written",
        delivery: "not_attempted",
        outcome: "not_applicable",
        ...(decision.key !== undefined ? { key: decision.key } : {}),
      });
    let recorded: Recorded;
    try {
      // Without a contact key no destination is known to the store: nothing to read, nor to wait for.
      const suppressed =
        contactKey === undefined ? undefined : await suppressionFor(store, contactKey, decision);
      const recording: { -readonly [K in keyof Recording]: Recording[K] } = {
        suppressed,
        decision,
        template,
        ticketId,
        runId,
        at: decided,
        mode,
        maxPerRun,
        leaseUntil: decided + leaseMs,
        audit: {
          tags,
          output: rawOutput(input.output),
          proposal: auditedProposal(parsed ?? parseProposal(input.output)),
          catalogVersion: catalog.version,
          timings: { loadMs, decideMs: decided - started - loadMs },
        },
      };
      if (contactKey !== undefined && template !== undefined)
        recording.contacts = { key: contactKey, hold: holdsFirst(template) };
      recorded = await transaction("record_decision", (tx) => recordDecision(tx, recording));
    } catch (error) {
      throw notWritten(error);
    }
    if (recorded.outbound !== undefined) {
      // The decision read the destination's suppression just before writing the row (suppressionFor).
      const { outcome, queueItemId } = await deliver(
        recorded.outbound,
        "handle",
        false,
        recorded.auditId,
        true,
        true,
      );
      const delivery: { -readonly [K in keyof DeliveryStatus]: DeliveryStatus[K] } = {
        status: outcome.status,
        attempts: outcome.attempts,
      };
      if (outcome.status === "delivered") delivery.receiptId = outcome.receiptId;
      return handleResult(recorded, queueItemId ?? recorded.queueItemId, delivery);
    }
    if (recorded.outboundId !== undefined) {
      // A duplicate: where the first message stands. The store may be gone again; the decision stands.
      const row = await store.getOutbound(recorded.outboundId).catch(() => undefined);
      if (row !== undefined) {
        return handleResult(recorded, recorded.queueItemId, {
          status: row.status,
          attempts: row.attempts,
          ...(row.receiptId ? { receiptId: row.receiptId } : {}),
        });
      }
    }
    return handleResult(recorded, recorded.queueItemId, undefined);
  };

  const { release, ...shared } = operations;
  const queue: HumanQueue = merged(shared, {
    approve: (id: string, actor: Parameters<HumanQueue["approve"]>[1]) =>
      track(() => approveAndDeliver(id, actor)),
  });

  /** Releases the draft (the approval and its outbound row), then delivers it at once. */
  async function approveAndDeliver(
    id: string,
    actor: Parameters<HumanQueue["approve"]>[1],
  ): Promise<ApprovalResult> {
    const approval = await release(id, actor).catch((error: unknown) => {
      throw outageError(error, "queue.approve", {
        decision: "not_written",
        delivery: "not_attempted",
        outcome: "not_applicable",
      });
    });
    if (!approval.approvedNow || approval.outbound === undefined || mode === "shadow") return approval;
    if (approval.keyUsedBefore) return approval;
    // release refused a suppressed destination, read in the transaction that released the row.
    return merged(approval, { outbound: await deliverWritten(approval.outbound, "queue.approve", true) });
  }

  /**
   * Delivers an outbound row a person's action just wrote (pending), and gives where it stands after.
   * `suppressionChecked`: that action's transaction refused a suppressed destination (see deliver).
   */
  async function deliverWritten(
    written: OutboundRow,
    call: string,
    suppressionChecked: boolean,
  ): Promise<OutboundRow> {
    const writes = {
      decision: "written" as const,
      delivery: "not_attempted" as const,
      outcome: "not_applicable" as const,
      outboundId: written.id,
      key: written.key,
    };
    const now = clock();
    const [row] = await store
      .claimDue({ now, leaseUntil: now + leaseMs, limit: 1, id: written.id })
      .catch((error: unknown) => {
        throw outageError(error, call, writes);
      });
    if (row === undefined) return written;
    const { outcome } = await deliver(
      row,
      call,
      row.status === "delivering",
      undefined,
      false,
      suppressionChecked,
    );
    const outbound = await store.getOutbound(row.id).catch(() => undefined);
    return (
      outbound ??
      merged(row, {
        status: outcome.status,
        attempts: outcome.attempts,
        leaseUntil: undefined,
        ...(outcome.status === "delivered" ? { deliveredAt: now, receiptId: outcome.receiptId } : {}),
      })
    );
  }

  /** Checks and records a person's reply in one transaction, then delivers it (see person-reply.ts). */
  async function sendPersonReply(input: PersonReplyInput): Promise<PersonReplyResult> {
    const checked = checkReply(input);
    if (typeof checked === "string") return refusedReply(checked);
    const id = typeof input.queueItemId === "string" ? input.queueItemId : "";
    const item = await store.getQueueItem(id);
    if (item === undefined) return refusedReply("not_found");
    const loaded = await loadRecords(options.load, item.ticketId, loadTimeoutMs);
    const reply = await transaction("person_reply", (tx) =>
      recordPersonReply(tx, {
        itemId: id,
        text: checked.text,
        subject: checked.subject,
        by: checked.by,
        at: clock(),
        mode,
        records: loaded.ok ? loaded.records : undefined,
        warning: replyWarning(item, checked.text),
        contactKey,
      }),
    ).catch((error: unknown) => {
      throw outageError(error, "sendPersonReply", {
        decision: "not_written",
        delivery: "not_attempted",
        outcome: "not_applicable",
      });
    });
    if (!reply.ok || !reply.sentNow || reply.outbound === undefined || mode === "shadow") return reply;
    // recordPersonReply refused a suppressed recipient, read in the transaction that wrote the row.
    return merged(reply, { outbound: await deliverWritten(reply.outbound, "sendPersonReply", true) });
  }

  return {
    handle,
    catalog: catalog as unknown as Catalog,
    records: async (ticketId) => loadRecords(options.load, ticketId, loadTimeoutMs),
    queue,
    sendPersonReply: (input) => track(() => sendPersonReply(input)),
    flush: () =>
      track(async () => {
        let delivered = 0;
        let failed = 0;
        if (mode === "shadow") return { delivered, failed };
        await marksSynced();
        for (;;) {
          const now = clock();
          const due = await store
            .claimDue({ now, leaseUntil: now + leaseMs, limit: 64 })
            .catch((error: unknown) => {
              throw outageError(error, `flush (after ${delivered} delivered, ${failed} failed)`, {
                decision: "not_written",
                delivery: "not_attempted",
                outcome: "not_applicable",
              });
            });
          if (due.length === 0) break;
          // Every row of the batch is delivered and its outcome recorded (or reported) before an error
          // from one of them ends the flush: no outcome is dropped unrecorded for another row's failure.
          const settled = await Promise.allSettled(
            due.map((row) => deliver(row, `flush (outbound ${row.id})`, row.status === "delivering")),
          );
          const rejected = settled.find((result) => result.status === "rejected");
          if (rejected !== undefined) throw rejected.reason;
          const outcomes = settled.map(
            (result) => (result as PromiseFulfilledResult<Awaited<ReturnType<typeof deliver>>>).value,
          );
          for (const { outcome } of outcomes) outcome.status === "delivered" ? delivered++ : failed++;
        }
        return { delivered, failed };
      }),
    recordDeliveryEvents: (events) =>
      track(async () => {
        const outcomes: DeliveryEventOutcome[] = [];
        for (const event of events)
          outcomes.push(await batcher.run((tx) => recordDeliveryEvent(tx, event, contactKey, clock())));
        return outcomes;
      }),
    suppressions: {
      list: (filter = {}) => store.listSuppressions(filter),
      lift: (destination, actor) =>
        track(() => liftSuppression((work) => batcher.run(work), destination, actor, clock())),
    },
    audit: {
      query: (filter = {}) => {
        const { since, until, ...rest } = filter;
        const range: { since?: number; until?: number } = {};
        if (since !== undefined) range.since = +since;
        if (until !== undefined) range.until = +until;
        return store.queryAudit(merged(rest, range));
      },
      append: (event) => track(() => batcher.run((tx) => tx.appendAudit(event))),
    },
    close() {
      closed ??= (async () => {
        closing = true;
        while (inFlight > 0) {
          drained ??= deferred();
          await drained.promise;
        }
        await batcher.idle();
        const unsynced = await marksSynced().then(
          () => undefined,
          (error: unknown) => ({ error }),
        );
        for (const transport of new Set(Object.values(transports))) await transport?.close?.();
        await store.close();
        if (unsynced !== undefined) throw unsynced.error;
      })();
      return closed;
    },
  };
}

/**
 * The outbox's `contactKey` as a key, or undefined without one. Refuses a short key, and a hold on first
 * contact without a key: the hold would have no way to tell a first contact.
 */
function contactKeyOf<S extends CollectionSchemas>(options: OutboxOptions<S>): KeyObject | undefined {
  const fail = (message: string): never => {
    throw new FormletterError("outbox_invalid", `createOutbox: ${message}`);
  };
  const given = options.contactKey;
  if (
    options.firstContact !== undefined &&
    options.firstContact !== "hold" &&
    options.firstContact !== "send"
  )
    fail('firstContact must be "hold" or "send"');
  if (given === undefined) {
    const holding = options.catalog.templates.find(
      (template) => (template.firstContact ?? options.firstContact) === "hold",
    );
    if (holding !== undefined)
      fail(
        `template "${holding.id}" holds first contacts, which needs contactKey (a secret of at least 32 bytes) to recognise destinations`,
      );
    return undefined;
  }
  return contactKeyFrom(given, "createOutbox");
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

function checkTimes(leaseMs: number, recordRetryMs: number, loadTimeoutMs: number): void {
  const fail = (message: string): never => {
    throw new FormletterError("outbox_invalid", `createOutbox: ${message}`);
  };
  const timer = (value: number) => Number.isInteger(value) && value > 0 && value <= 2_147_483_647;
  if (!timer(leaseMs)) fail("leaseMs must be a whole number of milliseconds above 0");
  if (!timer(loadTimeoutMs)) fail("loadTimeoutMs must be a whole number of milliseconds above 0");
  if (!Number.isInteger(recordRetryMs) || recordRetryMs < 0 || recordRetryMs >= leaseMs)
    fail(
      "recordRetryMs must be a whole number of milliseconds ≥ 0 and below leaseMs (a deliverer records its outcome while it holds the message)",
    );
}

function checkInput(input: HandleInput): { ticketId: string; runId: string; tags: Record<string, string> } {
  const fail = (message: string): never => {
    throw new FormletterError("handle_invalid", `handle: ${message}`);
  };
  if (typeof input !== "object" || input === null) fail("pass { ticketId, output, runId, tags? }");
  const { ticketId, runId, tags } = input;
  if (typeof ticketId !== "string" || ticketId === "" || ticketId.length > 200)
    fail("ticketId must be a non-empty string of at most 200 characters");
  if (typeof runId !== "string" || runId === "" || runId.length > 200)
    fail("runId must be a non-empty string of at most 200 characters (the agent run's id)");
  // No tags: a new empty object, not a copy of one (the audit event keeps its own).
  if (tags === undefined) return { ticketId, runId, tags: {} };
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
 * The proposal as the audit log keeps it: without the note, which can be long and is kept, capped,
 * with the decision. Null when the output is not a proposal (the raw output is kept beside it).
 */
function auditedProposal(parsed: ParsedOutput): unknown {
  if (!parsed.ok) return null;
  const proposal = parsed.proposal;
  if (proposal.kind === "escalate") return { escalate: proposal.code };
  return { template: proposal.template, slots: Object.fromEntries(proposal.slots) };
}

/** What `handle()` returns: the fields it has, in a fixed order, none of them undefined. */
function handleResult(
  recorded: Recorded,
  queueItemId: string | undefined,
  delivery: DeliveryStatus | undefined,
): HandleResult {
  const result: { -readonly [K in keyof HandleResult]: HandleResult[K] } = {
    decision: recorded.decision,
    duplicate: recorded.duplicate,
    auditId: recorded.auditId,
  };
  if (queueItemId !== undefined) result.queueItemId = queueItemId;
  if (recorded.outboundId !== undefined) result.outboundId = recorded.outboundId;
  if (delivery !== undefined) result.delivery = delivery;
  return result;
}

/** A handled proposal's span attributes: the decision's, and where its message stands. No content. */
function resultAttributes(result: HandleResult): Attributes {
  return merged(decisionAttributes(result.decision), {
    "formletter.duplicate": result.duplicate,
    ...(result.delivery === undefined
      ? {}
      : {
          "formletter.delivery.status": result.delivery.status,
          "formletter.delivery.attempts": result.delivery.attempts,
        }),
  });
}
