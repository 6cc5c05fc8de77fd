/**
 * On a SQLite store that syncs off the event loop, handle() hands back a delivered message once its
 * mark has committed, without waiting for the mark's sync; flush() and close() wait for it. The syncs
 * go through a file system of the test's own, held until the test releases them (no timing).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutbox, memoryTransport, StoreUnavailableError } from "../../src/index.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import type { WalFileSystem } from "../../src/store/sqlite/wal-file.js";
import { loadTicket, propertyCatalog, proposal } from "../fixtures/property.js";
import { until, watch } from "../fixtures/settling.js";

/** Syncs held until released; once `releaseAll` is on, new ones complete at once. */
function heldSyncs() {
  const held: { release(): void; fail(error: unknown): void }[] = [];
  let releaseAll = false;
  const fileSystem: WalFileSystem = {
    open: async () => ({
      datasync: () =>
        releaseAll ? Promise.resolve() : new Promise<void>((release, fail) => held.push({ release, fail })),
      close: async () => undefined,
    }),
    syncDirectory: async () => undefined,
  };
  return {
    fileSystem,
    held,
    releaseAll() {
      releaseAll = true;
      for (const sync of held.splice(0)) sync.release();
    },
  };
}

describe("the delivered mark, handed back at commit", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "formletter-mark-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** An outbox whose handle() has returned, delivered, while its mark's sync is still held. */
  async function handledWithMarkUnsynced() {
    const syncs = heldSyncs();
    // The store opens (and migrates) before the test holds anything.
    const store = openSqliteStore(join(dir, "outbox.db"), {}, { walFileSystem: syncs.fileSystem });
    const transport = memoryTransport();
    const outbox = createOutbox({
      catalog: propertyCatalog,
      load: loadTicket,
      store,
      transports: { email: transport },
    });
    const handled = watch(outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r1" }));
    await until(() => syncs.held.length === 1);
    expect(handled.settled, "the decision waits for its sync").toBe(false);
    expect(transport.sent, "nothing is sent before the decision is on disk").toHaveLength(0);
    syncs.held[0]?.release();
    await until(() => handled.settled);
    expect(handled.value).toMatchObject({ delivery: { status: "delivered" } });
    expect(transport.sent).toHaveLength(1);
    expect(syncs.held, "the mark's sync is still held").toHaveLength(2);
    return { syncs, store, outbox, result: handled.value };
  }

  it("flush() waits for the mark's sync, then finds nothing to deliver", async () => {
    const { syncs, store, outbox, result } = await handledWithMarkUnsynced();
    const flushed = watch(outbox.flush());
    await until(() => flushed.settled);
    expect(flushed.settled).toBe(false);
    syncs.releaseAll();
    await until(() => flushed.settled);
    expect(flushed.value).toEqual({ delivered: 0, failed: 0 });
    expect(await store.getOutbound(result?.outboundId as string)).toMatchObject({ status: "delivered" });
    await outbox.close();
  });

  it("close() waits for the mark's sync before it closes the store", async () => {
    const { syncs, outbox } = await handledWithMarkUnsynced();
    const closed = watch(outbox.close());
    await until(() => closed.settled);
    expect(closed.settled).toBe(false);
    syncs.releaseAll();
    await until(() => closed.settled);
    expect(closed.error).toBeUndefined();
  });

  it("a mark that could not be synced is reported by the next flush(), not lost silently", async () => {
    const { syncs, outbox, result } = await handledWithMarkUnsynced();
    syncs.held[1]?.fail(Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" }));
    const error = await outbox.flush().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error).toMatchObject({
      committed: true,
      writes: {
        decision: "written",
        delivery: "delivered",
        outcome: "not_written",
        outboundId: result?.outboundId,
      },
    });
    expect((error as Error).message).toMatch(/the message was delivered .*not recorded/);
    await outbox.close().catch(() => undefined);
  });
});
