import { createOutbox, memoryTransport, type Store } from "../../src/index.js";
import { destinationHash } from "../../src/outbox/first-contact.js";
import { refundCatalog, refundProposal, refundTicket } from "../fixtures/refunds.js";
import { manualClock, t0 } from "../outbox/harness.js";

/** The contact key suppressions are hashed under in these tests. */
export const contactKey = "a secret of at least thirty-two bytes, for tests";

/** A destination's full keyed hash, as the store keeps it. */
export const hashOf = (to: string) => destinationHash(contactKey, { channel: "email", to });

/**
 * An outbox sending refund notices by e-mail over `store`, and `send(email, ticketId?)`, which handles a
 * proposal for a new ticket whose shop has that address.
 */
export function refundOutbox(store: Store, options: { key?: string | undefined; at?: number } = {}) {
  const catalog = refundCatalog({ refunds: { values: ["refund.amount"], max: { EUR: { day: 1_000_000 } } } });
  const tickets = new Map<string, ReturnType<typeof refundTicket>>();
  const transport = memoryTransport();
  const key = "key" in options ? options.key : contactKey;
  const outbox = createOutbox({
    catalog,
    load: (ticketId) => tickets.get(ticketId),
    store,
    transports: { email: transport },
    clock: manualClock(options.at ?? t0),
    ...(key === undefined ? {} : { contactKey: key }),
  });
  let n = 0;
  const send = (email: string, ticketId?: string) => {
    n += 1;
    const ticket = refundTicket(ticketId ?? `T-${n}`, {}, {}, email);
    tickets.set(ticket.ticketId, ticket);
    return outbox.handle({
      ticketId: ticket.ticketId,
      output: refundProposal(catalog, ticket),
      runId: `run-${n}`,
    });
  };
  return { outbox, transport, send };
}
