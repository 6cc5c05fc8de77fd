/**
 * A transaction's methods for as long as it runs, and not a moment longer. A store may share one set of
 * methods across its transactions (they run one at a time), so a reference kept past the end of its own
 * (a write nobody awaited, a callback that fires later) would write into whichever transaction runs
 * next, and be committed or undone with it. A lease answers for its own transaction only: once that has
 * ended, every call is refused with `store_invalid`, and nothing is read or written.
 */
import { FormletterError } from "../core/errors.js";
import type { StoreTransaction } from "./store.js";

// Every method of a transaction; `satisfies` fails to compile when one is added to the interface and not here.
const methods = {
  findResult: true,
  countSends: true,
  reserve: true,
  sumSpend: true,
  addContact: true,
  hasContact: true,
  addDeliveryEvent: true,
  findOutboundByReceipt: true,
  addSuppression: true,
  getSuppression: true,
  removeSuppression: true,
  appendAudit: true,
  addOutbound: true,
  getOutbound: true,
  updateOutbound: true,
  addQueueItem: true,
  getQueueItem: true,
  updateQueueItem: true,
} as const satisfies Record<keyof StoreTransaction, true>;

type Method = keyof typeof methods;

class Lease {
  ended = false;
  constructor(readonly inner: StoreTransaction) {}
}

// The methods live on the prototype: a lease is one small object, made once a transaction.
for (const name of Object.keys(methods) as Method[]) {
  // Writable, as an object literal's methods are: a wrapper may derive from a lease and replace one.
  Object.defineProperty(Lease.prototype, name, {
    writable: true,
    configurable: true,
    value(this: Lease, ...args: unknown[]): Promise<unknown> {
      if (this.ended) return Promise.reject(ended(name));
      return (this.inner[name] as (...args: unknown[]) => Promise<unknown>)(...args);
    },
  });
}

function ended(method: Method): FormletterError {
  return new FormletterError(
    "store_invalid",
    `store: ${method}() was called through a transaction that has already ended, so nothing was read or written; await every store call inside the transaction's work, and start a new transaction for later work`,
  );
}

/** `tx` for one transaction's work: pass the result to the work, and to {@link endLease} once it ends. */
export function leaseTransaction(tx: StoreTransaction): StoreTransaction {
  return new Lease(tx) as unknown as StoreTransaction;
}

/** Refuses every later call through a lease (the transaction committed or rolled back). */
export function endLease(leased: StoreTransaction): void {
  if (leased instanceof Lease) leased.ended = true;
}
