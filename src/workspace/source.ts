import type { Catalog } from "../core/decision/catalog.js";
import type {
  Actor,
  ApprovalResult,
  ClaimOptions,
  LoadedRecords,
  Outbox,
  PersonReplyInput,
  PersonReplyResult,
  QueueItemDetail,
} from "../outbox/index.js";
import { openHumanQueue } from "../outbox/index.js";
import type { AuditEvent, AuditFilter, QueueFilter, QueueItem, QueuePage, Store } from "../store/index.js";
import type { WorkspaceSuppressions } from "./suppressions-page.js";

/** The queue operations the workspace calls: the outbox's (approve sends now) or a store's (release). */
export interface WorkspaceQueue {
  list(filter: QueueFilter): Promise<QueuePage>;
  get(id: string): Promise<QueueItemDetail | undefined>;
  claim(id: string, actor: Actor, options?: ClaimOptions): Promise<QueueItem>;
  reject(id: string, actor: Actor & { readonly note?: string }): Promise<QueueItem>;
  resolve(
    id: string,
    actor: Actor & { readonly resolution: string; readonly note?: string },
  ): Promise<QueueItem>;
  /** Sends the draft now, through the outbox's transports. */
  approve?(id: string, actor: Actor): Promise<ApprovalResult>;
  /** Approves the draft for the running outbox's next flush(). */
  release?(id: string, actor: Actor): Promise<ApprovalResult>;
}

/** Where the workspace reads and acts: a queue, the audit log, and (with an outbox) catalog and records. */
export interface WorkspaceSource {
  readonly queue: WorkspaceQueue;
  readonly audit: {
    query(filter: AuditFilter): AsyncIterable<AuditEvent>;
    append(event: Omit<AuditEvent, "id">): Promise<string>;
  };
  /** Slot definitions and field labels for the item page. */
  readonly catalog?: Catalog;
  /** A ticket's records as they are now, for the source record of each slot. */
  readonly records?: (ticketId: string) => Promise<LoadedRecords>;
  /** The outbox's suppressed destinations, listed and lifted on the suppressions page. */
  readonly suppressions?: WorkspaceSuppressions;
  /** Sends a person's own reply through the outbox's transports (with `humanReplies`). */
  readonly reply?: (input: PersonReplyInput) => Promise<PersonReplyResult>;
}

/** The workspace over a running outbox: approve sends through its transports, at once. */
export function outboxSource(outbox: Outbox): WorkspaceSource {
  return {
    queue: outbox.queue,
    audit: outbox.audit,
    catalog: outbox.catalog,
    records: (ticketId) => outbox.records(ticketId),
    suppressions: outbox.suppressions,
    reply: (input) => outbox.sendPersonReply(input),
  };
}

/**
 * The workspace over a store alone (`formletter queue --ui`): it holds no transports, so an approval is
 * a release, sent by the outbox that owns the transports on its next flush().
 */
export function storeSource(store: Store, options: { contactKey?: string } = {}): WorkspaceSource {
  return {
    queue: openHumanQueue(store, options.contactKey === undefined ? {} : { contactKey: options.contactKey }),
    audit: {
      query: (filter) => store.queryAudit(filter),
      append: (event) => store.transaction((tx) => tx.appendAudit(event)),
    },
  };
}
