import { describe, expect, it } from "vitest";
import { propertyTicket, proposal } from "../fixtures/property.js";
import { auditOf, outboxOver, storeKinds, useStore } from "./harness.js";

/** A getter that throws, on the ticket or deep inside a record. */
function throwingGetter(path: "ticketId" | "contractors" | "email") {
  return (ticketId: string) => {
    const ticket = propertyTicket(ticketId) as unknown as Record<string, unknown>;
    const boom = () => {
      throw new Error(`getter ${path} exploded`);
    };
    if (path === "email") {
      const contractor = { ...(ticket.contractors as object[])[0] };
      Object.defineProperty(contractor, "email", { get: boom, enumerable: true });
      return { ...ticket, contractors: [contractor] };
    }
    const out = { ...ticket };
    Object.defineProperty(out, path, { get: boom, enumerable: true });
    return out;
  };
}

/** A getter that answers differently on each read: a clean address when checked, another when sent. */
function shiftingGetter(ticketId: string) {
  const ticket = propertyTicket(ticketId);
  const contractor = { ...ticket.contractors[0] } as Record<string, unknown>;
  let reads = 0;
  Object.defineProperty(contractor, "email", {
    get: () => (reads++ === 0 ? `works-${ticketId}@builders.example` : "attacker@evil.example"),
    enumerable: true,
  });
  return { ...ticket, contractors: [contractor] };
}

function revoked(ticketId: string) {
  const { proxy, revoke } = Proxy.revocable(propertyTicket(ticketId), {});
  revoke();
  return proxy;
}

function revokedRecord(ticketId: string) {
  const ticket = propertyTicket(ticketId);
  const { proxy, revoke } = Proxy.revocable({ ...ticket.contractors[0] }, {});
  revoke();
  return { ...ticket, contractors: [proxy] };
}

/** ownKeys lists keys twice and keys that do not exist. */
function lyingOwnKeys(ticketId: string) {
  return new Proxy(propertyTicket(ticketId), {
    ownKeys: () => ["ticketId", "ticketId", "contractors", "ghost"],
  });
}

/** ownKeys hides a collection that get still answers: decide() must see one consistent view. */
function hidingOwnKeys(ticketId: string) {
  const ticket = propertyTicket(ticketId);
  return new Proxy(ticket, {
    ownKeys: () => ["ticketId"],
    getOwnPropertyDescriptor: (target, key) => Reflect.getOwnPropertyDescriptor(target, key),
  });
}

/** A thenable that never settles: awaiting it would hang for ever. */
function neverSettles(): unknown {
  // biome-ignore lint/suspicious/noThenProperty: the hostile shape under test is exactly this thenable.
  return { then: () => undefined };
}

/** A Proxy that answers every property with a fresh Proxy of itself: endless depth. */
function bottomless(ticketId: string) {
  const make = (): unknown =>
    new Proxy(
      {},
      {
        get: (_target, key) => (key === "ticketId" ? ticketId : key === "then" ? undefined : make()),
        ownKeys: () => ["ticketId", "contractors", "work_orders"],
        getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true, writable: true }),
      },
    );
  return make();
}

function cyclic(ticketId: string) {
  const ticket = propertyTicket(ticketId) as unknown as Record<string, unknown>;
  const contractor: Record<string, unknown> = { ...(ticket.contractors as object[])[0] };
  contractor.self = contractor;
  return { ...ticket, contractors: [contractor] };
}

/** Every trap throws, getPrototypeOf included (instanceof, Array.isArray walk it). */
function allTrapsThrow() {
  const boom = () => {
    throw new Error("trap");
  };
  return new Proxy(
    {},
    { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom },
  );
}

const hostile: [string, (ticketId: string) => unknown][] = [
  ["a getter on ticketId that throws", throwingGetter("ticketId")],
  ["a getter on a collection that throws", throwingGetter("contractors")],
  ["a getter on a record field that throws", throwingGetter("email")],
  ["a revoked Proxy as the ticket", revoked],
  ["a revoked Proxy as a record", revokedRecord],
  ["a Proxy whose ownKeys lies (duplicates, missing keys)", lyingOwnKeys],
  ["a Proxy whose every trap throws", allTrapsThrow],
  ["a thenable that never settles", neverSettles],
  [
    "an async loader resolving to a thenable that never settles",
    (): Promise<unknown> => Promise.resolve().then(neverSettles),
  ],
  ["a Proxy with endless depth", bottomless],
  ["records that refer to themselves", cyclic],
];

describe.each(storeKinds)("a hostile loader on the %s store", (kind) => {
  const ctx = useStore(kind);

  it.each(hostile)(
    "%s: handle() resolves to records_invalid, queued and audited, nothing sent",
    async (_, load) => {
      const { outbox, transport } = outboxOver(ctx.store, { load, loadTimeoutMs: 200 });
      const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
      expect(result.decision).toMatchObject({ outcome: "escalate", reason: "records_invalid" });
      expect(transport.sent).toEqual([]);
      expect(await outbox.queue.get(result.queueItemId as string)).toMatchObject({
        reason: "records_invalid",
        ticketId: "T-1",
      });
      const [event] = await auditOf(outbox);
      expect(event).toMatchObject({ id: result.auditId, reason: "records_invalid" });
    },
    5_000,
  );

  it("a getter that answers differently on each read: what is checked is what is sent", async () => {
    const { outbox, transport } = outboxOver(ctx.store, { load: shiftingGetter });
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    expect(result.delivery?.status).toBe("delivered");
    expect(transport.sent.map((sent) => sent.message.to)).toEqual(["works-t-1@builders.example"]);
  });

  it("a Proxy whose ownKeys hides a collection: decided on what it listed, one view throughout", async () => {
    const { outbox, transport } = outboxOver(ctx.store, { load: hidingOwnKeys });
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    // The hidden collections are absent from the copy: the proposal's handles find nothing.
    expect(result.decision.outcome).toBe("escalate");
    expect(transport.sent).toEqual([]);
  });

  it("a loader slower than loadTimeoutMs escalates once the time is up", async () => {
    const load = (ticketId: string) =>
      new Promise((resolve) => setTimeout(() => resolve(propertyTicket(ticketId)), 2_000));
    const { outbox } = outboxOver(ctx.store, { load, loadTimeoutMs: 100 });
    const started = performance.now();
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(result.decision).toMatchObject({ reason: "records_invalid" });
    expect(result.decision.outcome === "escalate" && result.decision.detail).toMatch(/loadTimeoutMs/);
  });
});
