import type { KeyObject } from "node:crypto";
import { recordedVersions, type Versions } from "../core/definition/template-content.js";
import { merged } from "../core/merged.js";
import { actorNameOf } from "../core/visible-name.js";
import {
  newOutboundRow,
  type OutboundRow,
  type QueueFilter,
  type QueueItem,
  type QueuePage,
  type QueueStatus,
  type Store,
  type StoreTransaction,
} from "../store/store.js";
import type { Batcher } from "./batcher.js";
import { destinationHash, recordContact } from "./first-contact.js";
import {
  actorInvalid,
  destinationSuppressed,
  itemNotFound,
  noDraft,
  resolutionInvalid,
  transitionInvalid,
} from "./queue-error.js";
import { bodyHash } from "./record-decision.js";

/** Who acts on a queue item, as the audit log records it. */
export interface Actor {
  /**
   * A person or service id, e.g. "ana@example.com": 1 to 200 characters once trimmed, one or more of
   * them visible, none a control, invisible or bidi character; any other is a `queue_actor_invalid`
   * `QueueError`.
   */
  readonly by: string;
}

/** What an approval did: the item, and the delivery of its draft (when the outbox delivers it). */
export interface ApprovalResult {
  readonly item: QueueItem;
  /** False when the item had already been approved: nothing new was sent. */
  readonly approvedNow: boolean;
  /**
   * True when the item's idempotency key already had a message before this approval (delivered, or on
   * its way): nothing new was sent, the item is closed with resolution "already_sent", and `outbound`
   * is that message — its `bodySha256` says what was sent, which need not be the item's draft.
   */
  readonly keyUsedBefore: boolean;
  readonly outbound: OutboundRow | undefined;
}

function templateVersionOf(deployed: DeployedVersions, template: string): Versions {
  const version = deployed.templateVersion(template);
  // A template no longer in the catalog: deployed has no version of it, and the approval says so.
  return version === undefined ? {} : { templateVersion: version };
}

// Rows whose message has gone out or is going out: approving their key again sends nothing.
const sentOrSending: readonly OutboundRow["status"][] = ["delivered", "pending", "delivering", "shadow"];

/**
 * One queue item with the typed fields of the escalation that opened it (`slot`, `expected`, `limit`,
 * `max`, `count`, `code`…; see `EscalateDecision`), as its audit event keeps them: what a person reads
 * beside the `detail`, without parsing it.
 */
export interface QueueItemDetail extends QueueItem {
  /** Undefined when the event keeps none (an item written by an older version, or a store that lost it). */
  readonly facts: Readonly<Record<string, unknown>> | undefined;
  /**
   * The template and catalog versions the item was decided under, as its audit event keeps them: a
   * draft approved after a deploy that changed its template is still the old version's message.
   */
  readonly decidedUnder: Versions;
}

export type { Versions };

/** What is deployed now: the outbox's catalog version, and the version of each of its templates. */
export interface DeployedVersions {
  readonly catalogVersion: string;
  templateVersion(template: string): string | undefined;
}

/** How a claim is taken. */
export interface ClaimOptions {
  /**
   * Milliseconds after which a claim lapses: an item claimed longer ago may be claimed by someone else
   * (the audit event names whom it was taken from), and its holder's claim again starts it afresh.
   * Without it a claim lasts until the item is closed.
   */
  readonly lapseAfterMs?: number;
}

/** The human queue: escalations, approvals, limits reached and failed deliveries. */
export interface HumanQueue {
  list(filter?: QueueFilter): Promise<QueuePage>;
  /** The item, with the typed fields of its escalation. */
  get(id: string): Promise<QueueItemDetail | undefined>;
  /** Marks the item as taken by `by`; claiming an item someone else holds (a claim not lapsed) is refused. */
  claim(id: string, actor: Actor, options?: ClaimOptions): Promise<QueueItem>;
  /**
   * Sends the item's draft exactly as it is (same bytes, same recipient). Approving twice sends once. A
   * recipient suppressed by a hard bounce or complaint (with `contactKey`) is refused, nothing sent.
   */
  approve(id: string, actor: Actor): Promise<ApprovalResult>;
  reject(id: string, actor: Actor & { readonly note?: string }): Promise<QueueItem>;
  /** Closes the item with how it was handled, e.g. "replied by phone". */
  resolve(
    id: string,
    actor: Actor & { readonly resolution: string; readonly note?: string },
  ): Promise<QueueItem>;
}

/**
 * The human queue over a store alone, for a process that holds no transports (what `openHumanQueue`
 * returns). It cannot send, so it has no `approve`: `release` records the same approval and writes the
 * same outbound row, pending, and the outbox that holds the transports sends it on its next `flush()`.
 * The two names say the one difference: `approve` sends now, `release` hands the sending on.
 */
export interface DetachedQueue extends Omit<HumanQueue, "approve"> {
  /**
   * Approves the item's draft exactly as it is and leaves it pending for the outbox's next `flush()`.
   * Releasing twice writes one message; the audit log records the approval as `approve` does.
   */
  release(id: string, actor: Actor): Promise<ApprovalResult>;
}

// Only an item still waiting may be approved, rejected or resolved; a status this version does not know
// (a newer version's, a hand-edited row) is refused as a closed one is, never acted on.
const waiting: readonly QueueStatus[] = ["open", "claimed"];

/**
 * The typed fields of the escalation that opened `item`, from its audit event: written in the same
 * transaction as the item, at its time, for its ticket.
 */
async function decisionOf(
  store: Store,
  item: QueueItem,
): Promise<Pick<QueueItemDetail, "facts" | "decidedUnder">> {
  const at = { since: item.createdAt, until: item.createdAt + 1 };
  for await (const event of store.queryAudit({ ticketId: item.ticketId, ...at })) {
    if (event.id !== item.auditId) continue;
    const facts = event.data.facts;
    return {
      facts:
        typeof facts === "object" && facts !== null && !Array.isArray(facts)
          ? (facts as Record<string, unknown>)
          : undefined,
      decidedUnder: recordedVersions(event.data),
    };
  }
  return { facts: undefined, decidedUnder: {} };
}

/**
 * The queue's state changes, each one transaction with its audit event. `release` writes the approval
 * and the outbound row; the outbox's `approve` is `release`, then delivery at once.
 */
export function createQueueOperations(
  store: Store,
  batcher: Batcher,
  clock: () => number,
  mode: "live" | "shadow",
  /** The outbox's contact key: an approved draft's destination is recorded (first contact). */
  contactKey?: KeyObject,
  /** What the outbox deploys now: an approval records it beside the versions the item was decided under. */
  deployed?: DeployedVersions,
): DetachedQueue {
  const load = async (tx: StoreTransaction, id: string): Promise<QueueItem> => {
    const item = typeof id === "string" ? await tx.getQueueItem(id) : undefined;
    if (item === undefined) throw itemNotFound(id);
    return item;
  };
  // Who acts is checked before any transaction starts: a refused name opens none, and changes nothing.
  const acting = async <T>(
    id: string,
    actor: Actor,
    work: (tx: StoreTransaction, by: string) => Promise<T>,
  ): Promise<T> => {
    const by = actorNameOf(actor?.by);
    if (by === undefined) throw actorInvalid(id);
    return batcher.run((tx) => work(tx, by));
  };
  const audit = (
    tx: StoreTransaction,
    item: QueueItem,
    by: string,
    action: string,
    extra: Record<string, unknown> = {},
  ) =>
    tx.appendAudit({
      at: clock(),
      type: "queue",
      ticketId: item.ticketId,
      runId: item.runId,
      template: item.template,
      outcome: undefined,
      reason: item.reason,
      key: item.key,
      actor: by,
      data: { action, item: item.id, from: item.status, ...extra },
    });
  const close = async (
    id: string,
    actor: Actor,
    action: "reject" | "resolve",
    change: { status: QueueStatus; resolution: string; closeNote: string | undefined },
  ): Promise<QueueItem> =>
    acting(id, actor, async (tx, by) => {
      const item = await load(tx, id);
      if (!waiting.includes(item.status)) throw transitionInvalid(id, action, item);
      const at = clock();
      await tx.updateQueueItem(id, merged(change, { closedBy: by, closedAt: at }));
      await audit(tx, item, by, action, { resolution: change.resolution, note: change.closeNote });
      return (await tx.getQueueItem(id)) as QueueItem;
    });

  /**
   * What an approval's audit event says of versions: decided under one, approved while another is
   * deployed, and whether the item's template changed in between (its draft is still the old text).
   */
  const approvalVersions = (
    decision: Pick<QueueItemDetail, "decidedUnder">,
    item: QueueItem,
  ): Record<string, unknown> => {
    if (deployed === undefined) return { decidedUnder: decision.decidedUnder };
    const now = merged(item.template === undefined ? {} : templateVersionOf(deployed, item.template), {
      catalogVersion: deployed.catalogVersion,
    });
    const then = decision.decidedUnder.templateVersion;
    return {
      decidedUnder: decision.decidedUnder,
      deployed: now,
      ...(then === undefined || item.template === undefined
        ? {}
        : { templateChanged: then !== now.templateVersion }),
    };
  };

  return {
    list: (filter: QueueFilter = {}) => store.listQueue(filter),
    get: async (id: string): Promise<QueueItemDetail | undefined> => {
      const item = await store.getQueueItem(id);
      return item === undefined ? undefined : merged(item, await decisionOf(store, item));
    },
    claim: (id: string, actor: Actor, options: ClaimOptions = {}) =>
      acting(id, actor, async (tx, by) => {
        const item = await load(tx, id);
        const lapse = options?.lapseAfterMs;
        const lapsing = typeof lapse === "number" && Number.isFinite(lapse) && lapse > 0;
        const now = clock();
        if (item.status === "claimed" && item.claimedBy === by && !lapsing) return item;
        // Read in the transaction, so of two people taking a lapsed claim at once one gets it.
        const lapsed =
          item.status === "claimed" && lapsing && now - (item.claimedAt ?? Number.NEGATIVE_INFINITY) >= lapse;
        const renewed = item.status === "claimed" && item.claimedBy === by;
        if (item.status !== "open" && !lapsed && !renewed) throw transitionInvalid(id, "claim", item);
        await tx.updateQueueItem(id, { status: "claimed", claimedBy: by, claimedAt: now });
        await audit(tx, item, by, "claim", lapsed && !renewed ? { takenFrom: item.claimedBy } : {});
        return (await tx.getQueueItem(id)) as QueueItem;
      }),
    release: async (id: string, actor: Actor): Promise<ApprovalResult> => {
      // The versions the item was decided under, read before the transaction: its decision's audit event
      // never changes. The approval records them beside what is deployed now, and a new outbound row
      // carries them: its message is the draft decided then.
      const before = typeof id === "string" ? await store.getQueueItem(id) : undefined;
      const decided = before === undefined ? undefined : await decisionOf(store, before);
      const versions = before === undefined || decided === undefined ? {} : approvalVersions(decided, before);
      return acting(id, actor, async (tx, by) => {
        const item = await load(tx, id);
        if (item.status === "approved") {
          const outbound = item.outboundId === undefined ? undefined : await tx.getOutbound(item.outboundId);
          return { item, approvedNow: false, keyUsedBefore: item.resolution === "already_sent", outbound };
        }
        if (!waiting.includes(item.status)) throw transitionInvalid(id, "approve", item);
        if (item.draft === undefined || item.key === undefined || item.template === undefined)
          throw noDraft(id, item);
        const at = clock();
        // The key's message, if it has one: the row this item is about (a failed or in-doubt delivery),
        // or the row another decision with the same key wrote.
        const prior = item.outboundId === undefined ? await tx.findResult(item.key) : undefined;
        const existingId = item.outboundId ?? prior?.outboundId;
        const existing = existingId === undefined ? undefined : await tx.getOutbound(existingId);
        if (existing !== undefined && sentOrSending.includes(existing.status)) {
          // Nothing new is sent, and the audit log records what the key's message is, not the draft.
          await tx.updateQueueItem(id, {
            status: "approved",
            closedBy: by,
            closedAt: at,
            resolution: "already_sent",
            outboundId: existing.id,
          });
          await audit(tx, item, by, "approve", {
            outboundId: existing.id,
            status: existing.status,
            bodySha256: existing.bodySha256,
            sentNow: false,
            ...versions,
          });
          return {
            item: (await tx.getQueueItem(id)) as QueueItem,
            approvedNow: true,
            keyUsedBefore: true,
            outbound: existing,
          };
        }
        // A suppressed recipient is refused in the transaction that would release the message: read here,
        // the outbox delivers the row right after without reading it again (a later flush() reads again).
        if (contactKey !== undefined) {
          const suppression = await tx.getSuppression(
            destinationHash(contactKey, existing?.message ?? item.draft),
          );
          if (suppression !== undefined) throw destinationSuppressed(id, item, suppression.cause);
        }
        const bodySha256 = bodyHash(item.draft);
        let outboundId: string;
        if (existing !== undefined) {
          // A failed or in-doubt delivery: the same row goes back to pending, so the message keeps its key.
          outboundId = existing.id;
          await tx.updateOutbound(outboundId, {
            status: mode === "shadow" ? "shadow" : "pending",
            leaseUntil: undefined,
          });
        } else {
          outboundId = await tx.addOutbound(
            newOutboundRow({
              key: item.key,
              ticketId: item.ticketId,
              runId: item.runId,
              template: item.template,
              message: item.draft,
              status: mode === "shadow" ? "shadow" : "pending",
              createdAt: at,
              bodySha256,
              templateVersion: decided?.decidedUnder.templateVersion,
              catalogVersion: decided?.decidedUnder.catalogVersion,
            }),
          );
          if (prior === undefined) {
            const decision = {
              outcome: "send" as const,
              ticketId: item.ticketId,
              template: item.template,
              message: item.draft,
              values: {},
              choices: {},
              key: item.key,
            };
            await tx.reserve({
              key: item.key,
              template: item.template,
              ticketId: item.ticketId,
              runId: item.runId,
              at,
              result: { decision, auditId: item.auditId, outboundId, queueItemId: item.id },
            });
          }
        }
        if (contactKey !== undefined && mode === "live" && existing === undefined) {
          await recordContact(tx, contactKey, item.draft, {
            at,
            ticketId: item.ticketId,
            runId: item.runId,
            template: item.template,
            key: item.key,
            actor: by,
          });
        }
        const outbound = await tx.getOutbound(outboundId);
        await tx.updateQueueItem(id, {
          status: "approved",
          closedBy: by,
          closedAt: at,
          resolution: "approved",
          outboundId,
        });
        // What is sent is the row's message: the draft for a new row, the row's own for a retried one.
        await audit(tx, item, by, "approve", {
          outboundId,
          bodySha256: outbound?.bodySha256 ?? bodySha256,
          sentNow: true,
          ...versions,
        });
        return {
          item: (await tx.getQueueItem(id)) as QueueItem,
          approvedNow: true,
          keyUsedBefore: false,
          outbound,
        };
      });
    },
    reject: (id: string, actor: Actor & { readonly note?: string }) =>
      close(id, actor, "reject", {
        status: "rejected",
        resolution: "rejected",
        closeNote: capNote(actor?.note),
      }),
    resolve: (id: string, actor: Actor & { readonly resolution: string; readonly note?: string }) => {
      if (
        typeof actor?.resolution !== "string" ||
        actor.resolution.trim() === "" ||
        actor.resolution.length > 200
      ) {
        return Promise.reject(resolutionInvalid(id));
      }
      return close(id, actor, "resolve", {
        status: "resolved",
        resolution: actor.resolution.trim(),
        closeNote: capNote(actor?.note),
      });
    },
  };
}

function capNote(note: string | undefined): string | undefined {
  return typeof note === "string" ? note.slice(0, 4000) : undefined;
}
