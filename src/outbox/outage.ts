import { isStoreUnavailable, type OutboxWrites, StoreUnavailableError } from "../core/errors.js";
import { merged } from "../core/merged.js";

/**
 * Runs `record` (a transaction recording a delivery's outcome) until it commits, retrying while the store
 * is unavailable and retryably so, with backoff, for at most `withinMs` of wall time. The outcome it
 * records lives only in this process meanwhile: giving up too early would leave a delivered message in
 * doubt, giving up never would hold `handle()` for the whole outage. The last error is thrown.
 */
export function recordWithRetry<T>(record: () => Promise<T>, withinMs: number): Promise<T> {
  const started = performance.now();
  // The first try is handed back as it is: the loop of retries, with its own promises, only once it fails.
  return record().catch((error: unknown) => retryRecord(record, withinMs, started, error));
}

async function retryRecord<T>(
  record: () => Promise<T>,
  withinMs: number,
  started: number,
  first: unknown,
): Promise<T> {
  let error = first;
  for (let attempt = 0; ; attempt++) {
    const left = withinMs - (performance.now() - started);
    if (!isStoreUnavailable(error) || !error.retryable || left <= 0) throw error;
    // 100 ms doubling to 2 s, with jitter: instances coming back from one outage do not retry in step.
    const ceiling = Math.min(2_000, 100 * 2 ** attempt);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(left, ceiling / 2 + (Math.random() * ceiling) / 2)),
    );
    try {
      return await record();
    } catch (next) {
      error = next;
    }
  }
}

/**
 * The error an outbox call throws when its store failed it: a {@link StoreUnavailableError} whose
 * message, `committed` and `writes` describe the whole call (what it wrote and sent before the store
 * failed), not the last transaction alone. Errors that are not about the store's availability are
 * returned as they are.
 */
export function outageError(error: unknown, call: string, writes: OutboxWrites): unknown {
  if (!isStoreUnavailable(error)) return error;
  const decision: OutboxWrites["decision"] =
    writes.decision === "not_written" && error.committed === "unknown" ? "unknown" : writes.decision;
  const full: OutboxWrites = merged(writes, { decision });
  const committed = decision === "written" ? true : decision === "unknown" ? "unknown" : false;
  return new StoreUnavailableError(`${call}: the store is unavailable; ${describeWrites(full)}`, {
    retryable: error.retryable,
    committed,
    writes: full,
    cause: error,
  });
}

/**
 * What a call wrote and sent, in words, for the error's message. The ids named are the store's and the
 * key code built; the transport's receipt is the provider's text, so it stays in `writes` only.
 */
export function describeWrites(writes: OutboxWrites): string {
  const ids = [
    writes.auditId === undefined ? undefined : `audit ${writes.auditId}`,
    writes.outboundId === undefined ? undefined : `outbound ${writes.outboundId}`,
    writes.key === undefined ? undefined : `key ${writes.key}`,
  ].filter((id) => id !== undefined);
  const decision = {
    written: `the decision was written${ids.length > 0 ? ` (${ids.join(", ")})` : ""}`,
    not_written: "the decision was not written",
    unknown: "the connection broke while the decision was committing: it may or may not have been written",
  }[writes.decision];
  const delivery = {
    not_attempted: "no message was sent",
    delivered: `the message was delivered${writes.receiptId ? " (its receipt is in writes.receiptId)" : ""}`,
    failed: "the transport refused the message",
  }[writes.delivery];
  const outcome = {
    written: "and that outcome was recorded",
    not_written:
      "but that outcome was not recorded: the message stays `delivering`, and flush() will not send it again blindly (it goes to the human queue as in doubt, or is resent with the same key to a transport that deduplicates by key)",
    not_applicable: "",
  }[writes.outcome];
  return `${decision}; ${delivery}${outcome ? ` ${outcome}` : ""}`;
}
