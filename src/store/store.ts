import type { Decision, Message } from "../core/decision/decision.js";
import type { EscalationReason } from "../core/decision/reasons.js";
import type { Spend } from "../core/definition/ceilings.js";

/** Where a human-queue item stands. `open` and `claimed` are waiting; the others are closed. */
export type QueueStatus = "open" | "claimed" | "approved" | "rejected" | "resolved";

/** Every queue status, in the order an item moves through them. */
export const queueStatuses: readonly QueueStatus[] = ["open", "claimed", "approved", "rejected", "resolved"];

/** A ticket waiting for a human: an escalation, an approval, a limit reached, or a failed delivery. */
export interface QueueItem {
  readonly id: string;
  readonly status: QueueStatus;
  readonly reason: EscalationReason;
  readonly ticketId: string;
  readonly runId: string;
  readonly template: string | undefined;
  /** For humans: what went wrong. */
  readonly detail: string;
  /** The idempotency key of the message this item would send, if any. */
  readonly key: string | undefined;
  /** The rendered message a human approves as it is (approvals, limits reached, failed deliveries). */
  readonly draft: Message | undefined;
  /** The model's escalation note, sanitised and capped. Never sent. */
  readonly note: string | undefined;
  readonly createdAt: number;
  readonly claimedBy: string | undefined;
  readonly claimedAt: number | undefined;
  readonly closedBy: string | undefined;
  readonly closedAt: number | undefined;
  /** How a human closed it: "approved", "rejected", or the resolution given to `resolve`. */
  readonly resolution: string | undefined;
  readonly closeNote: string | undefined;
  /** The audit event of the decision that opened the item. */
  readonly auditId: string;
  /** The outbound row an approval created, or the failed one a delivery_failed item is about. */
  readonly outboundId: string | undefined;
}

/**
 * Where an outbound message stands:
 * - `pending`: no transport has been called for it since it was written (or a human approved it again);
 * - `delivering`: a deliverer holds it (until `leaseUntil`) and may have called the transport. Written
 *   before the transport is called — with the decision for `handle()`, by the claim for `flush()` — so
 *   a row left `delivering` (its deliverer crashed, or lost the store before recording the outcome) is
 *   known to be in doubt, never mistaken for unsent;
 * - `delivered` / `failed`: the transport's outcome, recorded;
 * - `in_doubt`: a `delivering` row whose lease ran out, handed to the human queue: it may have been sent;
 * - `shadow`: written in shadow mode, never delivered.
 */
export type OutboundStatus = "pending" | "delivering" | "delivered" | "failed" | "in_doubt" | "shadow";

/** A message accepted for delivery: written in the same transaction as its decision. */
export interface OutboundRow {
  readonly id: string;
  readonly key: string;
  readonly ticketId: string;
  readonly runId: string;
  readonly template: string;
  readonly message: Message;
  readonly status: OutboundStatus;
  readonly attempts: number;
  readonly createdAt: number;
  /** While a deliverer holds the row, others leave it alone until this time (crash recovery after). */
  readonly leaseUntil: number | undefined;
  readonly deliveredAt: number | undefined;
  readonly receiptId: string | undefined;
  /** SHA-256 of the message text, as recorded in the audit log. */
  readonly bodySha256: string;
  /**
   * The version of the template that produced the message, and of the catalog that decided it: for an
   * approved draft, those it was decided under, not those deployed at approval. Undefined for a message
   * no catalog template produced (a person's own reply) and for rows written by an older formletter.
   * Set when the row is written, never changed.
   */
  readonly templateVersion: string | undefined;
  readonly catalogVersion: string | undefined;
}

/** What an audit event records. */
export type AuditType =
  | "decision"
  | "duplicate"
  | "delivery"
  | "queue"
  | "access"
  | "first_contact"
  | "delivery_status"
  | "suppression";

/** One line of the audit log: every decision, duplicate, delivery attempt outcome and queue transition. */
export interface AuditEvent {
  readonly id: string;
  readonly at: number;
  readonly type: AuditType;
  readonly ticketId: string | undefined;
  readonly runId: string | undefined;
  readonly template: string | undefined;
  readonly outcome: Decision["outcome"] | undefined;
  readonly reason: EscalationReason | undefined;
  readonly key: string | undefined;
  /** Who did it: "outbox" for decisions and deliveries, the person for queue transitions. */
  readonly actor: string;
  /** Everything else: tags, raw output, proposal, choices, values, hashes, timings. JSON-safe. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** The first result of an idempotency key, returned again to a duplicate. */
export interface StoredResult {
  readonly decision: Decision;
  readonly auditId: string;
  readonly outboundId: string | undefined;
  readonly queueItemId: string | undefined;
}

/** Counts of accepted sends that the limits are checked against. */
export interface SendCounts {
  /** Of this template for this ticket, ever. */
  readonly ticket: number;
  /** Of this template since `since` (24 hours ago). */
  readonly day: number;
  /** Of any template in this run. */
  readonly run: number;
}

/** What `listQueue` filters on; `cursor` is the `nextCursor` of the previous page. */
export interface QueueFilter {
  readonly status?: QueueStatus | readonly QueueStatus[];
  readonly reason?: EscalationReason;
  readonly template?: string;
  readonly ticketId?: string;
  /** @default 50 */
  readonly limit?: number;
  readonly cursor?: string;
}

/** One page of queue items, oldest first. */
export interface QueuePage {
  readonly items: readonly QueueItem[];
  readonly nextCursor: string | undefined;
}

/** What `queryAudit` filters on. Times are epoch milliseconds, `until` exclusive. */
export interface AuditFilter {
  readonly since?: number;
  readonly until?: number;
  readonly ticketId?: string;
  readonly type?: AuditType;
}

type New<T> = Omit<T, "id">;

/** Why a destination was suppressed: the provider said it cannot receive mail, or its owner complained. */
export type SuppressionCause = (typeof suppressionCauses)[number];

/** Every {@link SuppressionCause}: what a refusal's cause is read against, never taken as it came. */
export const suppressionCauses = ["hard_bounce", "complaint"] as const;

/**
 * A destination no decision sends to until a person lifts it: the keyed hash first contact uses (never
 * the address), what suppressed it, and the audit event that recorded the provider's report.
 */
export interface Suppression {
  readonly destination: string;
  readonly channel: string;
  readonly cause: SuppressionCause;
  readonly provider: string;
  readonly at: number;
  readonly auditId: string;
}

/** One page of suppressions, by destination; `cursor` is the `nextCursor` of the previous page. */
export interface SuppressionPage {
  readonly items: readonly Suppression[];
  readonly nextCursor: string | undefined;
}

/** The operations of one transaction. Every write of one `handle()` happens inside one of these. */
export interface StoreTransaction {
  findResult(key: string): Promise<StoredResult | undefined>;
  /**
   * Counts sends for the limits. With `limits` (what each count is compared with: a send is allowed
   * while every count is below its limit), a store may answer without reading every count exactly,
   * provided it checks before it commits, serialised with every transaction that reserves, that each
   * count it answered is on the same side of its limit as the count in the store, and runs the
   * transaction again when one is not. Without `limits`, the counts are exact.
   */
  countSends(query: {
    template: string;
    ticketId: string;
    runId: string;
    since: number;
    limits?: SendCounts;
  }): Promise<SendCounts>;
  /** Records an accepted send (or approval) for limits and its first result for idempotency. */
  reserve(entry: {
    key: string;
    template: string;
    ticketId: string;
    runId: string;
    at: number;
    result: StoredResult;
    /**
     * What the message adds to value ceilings: each entry's `units` is added to its (group, currency)
     * in `at`'s minute, in this transaction, for `sumSpend` to read.
     */
    spend?: readonly Spend[];
  }): Promise<void>;
  /**
   * The units reserved in a ceiling group and currency since `since`, summed per minute like the day
   * count (`since`'s whole minute counts: a window is rounded out, never in). Exact: read so that no
   * transaction that reserves spend can commit between this read and this transaction's commit
   * (the SQLite write lock, the Postgres decision lock), and including this transaction's own spend.
   */
  sumSpend(query: { group: string; currency: string; since: number }): Promise<number>;
  /**
   * Records a destination (a keyed hash, never an address) as sent to; true when it was not recorded
   * before. Once per destination across transactions and processes (a unique key): of two concurrent
   * first sends, one gets true.
   */
  addContact(entry: { destination: string; template: string; at: number }): Promise<boolean>;
  /** Whether a destination has been recorded by `addContact` (committed, or in this transaction). */
  hasContact(destination: string): Promise<boolean>;
  /**
   * Records a provider's delivery event id (provider and id, as one string); true when it was not recorded
   * before, so a replayed event is counted once. Unique across transactions and processes.
   */
  addDeliveryEvent(entry: { id: string; at: number }): Promise<boolean>;
  /** The newest outbound row whose transport receipt (the provider's message id) is `receiptId`. */
  findOutboundByReceipt(receiptId: string): Promise<OutboundRow | undefined>;
  /** Suppresses a destination; true when it was not suppressed (an existing suppression is kept as it is). */
  addSuppression(entry: Suppression): Promise<boolean>;
  getSuppression(destination: string): Promise<Suppression | undefined>;
  /** Lifts a suppression; the suppression lifted, or undefined when there was none. */
  removeSuppression(destination: string): Promise<Suppression | undefined>;
  appendAudit(event: New<AuditEvent>): Promise<string>;
  addOutbound(row: New<OutboundRow>): Promise<string>;
  getOutbound(id: string): Promise<OutboundRow | undefined>;
  updateOutbound(
    id: string,
    change: Partial<Omit<OutboundRow, "id" | "key" | "message" | "templateVersion" | "catalogVersion">>,
  ): Promise<void>;
  addQueueItem(item: New<QueueItem>): Promise<string>;
  getQueueItem(id: string): Promise<QueueItem | undefined>;
  updateQueueItem(id: string, change: Partial<Omit<QueueItem, "id">>): Promise<void>;
}

/** What a caller of {@link Store.transaction} may be told before its promise settles. */
export interface TransactionHooks {
  /**
   * Called once the transaction has committed (later transactions see its writes) and before it is known
   * to be on disk, by a store that syncs commits after committing them (SQLite's default). A store whose
   * commit is durable in one step may never call it; the transaction's promise still resolves only once
   * durable. The outbox's group commit starts its next group's statements here, while this one syncs.
   */
  readonly committed?: () => void;
  /**
   * Asked once the transaction ended: true when a store that syncs commits off the event loop may sync
   * this one on it instead, as `synchronous=FULL` would. The outbox says so for a group of one call with
   * nothing else waiting (one call at a time): the event loop has nothing else to do meanwhile, and the
   * hand-off to another thread costs more than the sync. Without it, the store syncs off the loop.
   */
  readonly syncOnLoop?: () => boolean;
}

/**
 * Where the outbox keeps its state. Writes go through `transaction`, which commits all or nothing and
 * is durable when its promise resolves; reads outside a transaction see committed state only.
 */
export interface Store {
  /** A short name for logs and errors, e.g. "sqlite". */
  readonly name: string;
  /**
   * Runs `work` in one transaction; the store serialises transactions as its backend requires. The
   * promise resolves once the transaction is durable.
   */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>, hooks?: TransactionHooks): Promise<T>;
  /**
   * Claims up to `limit` outbound rows, oldest first, that are `pending` or `delivering`, and not leased
   * (or whose lease has run out): atomically, each becomes `delivering`, leased to the caller until
   * `leaseUntil`, so two deliverers never get the same row. Each row is returned with the lease, and with
   * the status it had when found: `pending` (never handed to a transport: safe to send) or `delivering`
   * (a delivery may have happened: in doubt). With `id`, only that row is considered.
   */
  claimDue(query: { now: number; leaseUntil: number; limit: number; id?: string }): Promise<OutboundRow[]>;
  getQueueItem(id: string): Promise<QueueItem | undefined>;
  listQueue(filter: QueueFilter): Promise<QueuePage>;
  getOutbound(id: string): Promise<OutboundRow | undefined>;
  /** Streams audit events in time order, in pages, without loading the whole log. */
  queryAudit(filter: AuditFilter): AsyncIterable<AuditEvent>;
  /** A destination's suppression, committed, or undefined. */
  getSuppression(destination: string): Promise<Suppression | undefined>;
  /** Suppressions in destination order, `limit` a page (default 50, at most 500). */
  listSuppressions(filter: { limit?: number; cursor?: string }): Promise<SuppressionPage>;
  close(): Promise<void>;
}

/**
 * Sends are counted per minute for `perDay`: a window "since T" covers every send in T's minute and
 * after, so a rolling day is rounded out, never in — a limit can be reached a minute early, never passed.
 */
export function minuteOf(at: number): number {
  return Math.floor(at / 60_000);
}

/** What a new outbound row needs; attempts, delivery, receipt and versions not given start empty. */
export type NewOutboundRow = Pick<
  OutboundRow,
  "key" | "ticketId" | "runId" | "template" | "message" | "status" | "createdAt" | "bodySha256"
> &
  Partial<Pick<OutboundRow, "leaseUntil" | "templateVersion" | "catalogVersion">>;

/**
 * A new outbound row, not yet tried: its fields in one literal (a send builds one, and a spread of `row`
 * would cost a copy of it).
 */
export function newOutboundRow(row: NewOutboundRow): Omit<OutboundRow, "id"> {
  return {
    key: row.key,
    ticketId: row.ticketId,
    runId: row.runId,
    template: row.template,
    message: row.message,
    status: row.status,
    attempts: 0,
    createdAt: row.createdAt,
    leaseUntil: row.leaseUntil,
    deliveredAt: undefined,
    receiptId: undefined,
    bodySha256: row.bodySha256,
    templateVersion: row.templateVersion,
    catalogVersion: row.catalogVersion,
  };
}

/**
 * `row`, built by `newOutboundRow` and written with `addOutbound`, given the id the store answered, in
 * place: the row a send delivers is the one it wrote, not a copy of it. The stores keep their own copy
 * of what they are given (fields or columns); one that kept the object would see the id it gave.
 */
export function numberedOutboundRow(row: Omit<OutboundRow, "id">, id: string): OutboundRow {
  const numbered = row as Omit<OutboundRow, "id"> & { id: string };
  numbered.id = id;
  return numbered;
}

/** What opening a queue item needs; everything a human does to it later starts empty. */
export type NewQueueItem = Pick<
  QueueItem,
  "reason" | "ticketId" | "runId" | "detail" | "createdAt" | "auditId"
> &
  Partial<Pick<QueueItem, "template" | "key" | "draft" | "note" | "outboundId">>;

/** A new, open queue item. */
export function openQueueItem(item: NewQueueItem): Omit<QueueItem, "id"> {
  return {
    status: "open",
    template: undefined,
    key: undefined,
    draft: undefined,
    note: undefined,
    outboundId: undefined,
    claimedBy: undefined,
    claimedAt: undefined,
    closedBy: undefined,
    closedAt: undefined,
    resolution: undefined,
    closeNote: undefined,
    ...item,
  };
}
