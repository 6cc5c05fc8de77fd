import { expect, it } from "vitest";
import type { OutboundRow, Store, Suppression } from "../store.js";

/**
 * The conformance cases of delivery status coming back: outbound rows found by receipt, provider event
 * ids recorded once, and suppressions. Registered inside `describeStoreConformance`, on its fresh store.
 */
export function deliveryStatusCases(
  current: () => Store,
  fixtures: {
    readonly outboundRow: (overrides: Partial<Omit<OutboundRow, "id">>) => Omit<OutboundRow, "id">;
    readonly t0: number;
  },
): void {
  const { t0 } = fixtures;
  const hashOf = (n: number) => n.toString(16).padStart(64, "0");
  const suppression = (n: number, overrides: Partial<Suppression> = {}): Suppression => ({
    destination: hashOf(n),
    channel: "email",
    cause: "hard_bounce",
    provider: "ses",
    at: t0 + n,
    auditId: String(n),
    ...overrides,
  });

  it("finds an outbound row by its receipt, the newest of two with one receipt, and none for an unknown one", async () => {
    const store = current();
    const [first, , third] = await store.transaction(async (tx) => [
      await tx.addOutbound(fixtures.outboundRow({ receiptId: "msg-1" })),
      await tx.addOutbound(fixtures.outboundRow({})),
      await tx.addOutbound(fixtures.outboundRow({})),
    ]);
    await store.transaction((tx) => tx.updateOutbound(third as string, { receiptId: "msg-3" }));
    const found = await store.transaction(async (tx) => [
      (await tx.findOutboundByReceipt("msg-1"))?.id,
      (await tx.findOutboundByReceipt("msg-3"))?.id,
      await tx.findOutboundByReceipt("msg-2"),
      await tx.findOutboundByReceipt(""),
    ]);
    expect(found).toEqual([first, third, undefined, undefined]);
    const again = await store.transaction((tx) =>
      tx.addOutbound(fixtures.outboundRow({ receiptId: "msg-1" })),
    );
    expect((await store.transaction((tx) => tx.findOutboundByReceipt("msg-1")))?.id).toBe(again);
  });

  it("records a delivery event id once: true the first time, false after, and not after a rollback", async () => {
    const store = current();
    expect(await store.transaction((tx) => tx.addDeliveryEvent({ id: "ses:e-1", at: t0 }))).toBe(true);
    expect(await store.transaction((tx) => tx.addDeliveryEvent({ id: "ses:e-1", at: t0 + 1 }))).toBe(false);
    await expect(
      store.transaction(async (tx) => {
        expect(await tx.addDeliveryEvent({ id: "ses:e-2", at: t0 })).toBe(true);
        throw new Error("fails after recording");
      }),
    ).rejects.toThrow("fails after recording");
    expect(await store.transaction((tx) => tx.addDeliveryEvent({ id: "ses:e-2", at: t0 }))).toBe(true);
  });

  it("is isolated: of concurrent deliveries of one event, exactly one is new", async () => {
    const store = current();
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, () =>
        store.transaction((tx) => tx.addDeliveryEvent({ id: "sendgrid:same", at: t0 })),
      ),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });

  it("suppresses a destination once, keeps the first cause, reads it in and out of a transaction, and lifts it", async () => {
    const store = current();
    expect(await store.transaction((tx) => tx.addSuppression(suppression(1)))).toBe(true);
    expect(
      await store.transaction((tx) =>
        tx.addSuppression(suppression(1, { cause: "complaint", provider: "x" })),
      ),
    ).toBe(false);
    expect(await store.getSuppression(hashOf(1))).toEqual(suppression(1));
    expect(await store.transaction((tx) => tx.getSuppression(hashOf(1)))).toEqual(suppression(1));
    expect(await store.getSuppression(hashOf(2))).toBeUndefined();
    expect(await store.transaction((tx) => tx.removeSuppression(hashOf(1)))).toEqual(suppression(1));
    expect(await store.transaction((tx) => tx.removeSuppression(hashOf(1)))).toBeUndefined();
    expect(await store.getSuppression(hashOf(1))).toBeUndefined();
  });

  it("rolls back a suppression and a lift with a failed transaction", async () => {
    const store = current();
    await expect(
      store.transaction(async (tx) => {
        await tx.addSuppression(suppression(5));
        expect(await tx.getSuppression(hashOf(5))).toEqual(suppression(5));
        throw new Error("fails after suppressing");
      }),
    ).rejects.toThrow("fails after suppressing");
    expect(await store.getSuppression(hashOf(5))).toBeUndefined();
    await store.transaction((tx) => tx.addSuppression(suppression(6)));
    await expect(
      store.transaction(async (tx) => {
        await tx.removeSuppression(hashOf(6));
        throw new Error("fails after lifting");
      }),
    ).rejects.toThrow("fails after lifting");
    expect(await store.getSuppression(hashOf(6))).toEqual(suppression(6));
  });

  it("lists suppressions in destination order, in pages, without duplicates or gaps", async () => {
    const store = current();
    const written = [7, 3, 11, 1, 9];
    for (const n of written) await store.transaction((tx) => tx.addSuppression(suppression(n)));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await store.listSuppressions({ limit: 2, ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...page.items.map((item) => item.destination));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 10);
    expect(seen).toEqual([...written].sort((a, b) => a - b).map(hashOf));
    expect(pages).toBe(3);
    expect((await store.listSuppressions({})).items).toHaveLength(5);
  });
}
