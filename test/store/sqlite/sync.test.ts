/**
 * The SQLite store's commit sync off the event loop: what it waits for and when, watched through a
 * file system of the test's own (no timing: each sync is held until the test releases it).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../../../src/index.js";
import { nextCheckpointInterval } from "../../../src/store/sqlite/checkpointer.js";
import { openSqliteStore } from "../../../src/store/sqlite/store.js";
import type { WalFileSystem } from "../../../src/store/sqlite/wal-file.js";
import type { Store } from "../../../src/store/store.js";
import { until, watch } from "../../fixtures/settling.js";
import { auditEvent, outboundRow } from "../conformance.js";

/** A file system whose every datasync waits until the test releases it, noting each call. */
function heldSyncs(file: string) {
  const calls: string[] = [];
  const held: { release(): void; fail(error: unknown): void; sawRows: number }[] = [];
  // What the next sync on the event loop throws, if anything.
  let failNow: unknown;
  const auditRows = () => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare("SELECT COUNT(*) AS n FROM audit").get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  const fileSystem: WalFileSystem = {
    open: async (path) => {
      calls.push(`open ${basename(path)}`);
      return {
        datasyncNow: () => {
          calls.push("datasync on the loop");
          if (failNow !== undefined) throw failNow;
        },
        datasync: () => {
          calls.push("datasync");
          // What another connection sees as the sync starts: the commits it is to make durable.
          const sawRows = auditRows();
          return new Promise<void>((release, fail) => held.push({ release, fail, sawRows }));
        },
        close: async () => {
          calls.push("close");
        },
      };
    },
    syncDirectory: async () => {
      calls.push("sync directory");
    },
  };
  return {
    fileSystem,
    calls,
    held,
    failNextSyncOnLoop: (error: unknown) => {
      failNow = error;
    },
  };
}

describe("sqliteStore, commits synced off the event loop", () => {
  let dir: string;
  let file: string;
  const stores: Store[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "formletter-sqlite-sync-"));
    file = join(dir, "outbox.db");
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  const storeWith = (fileSystem: WalFileSystem) => {
    const store = openSqliteStore(file, {}, { walFileSystem: fileSystem });
    stores.push(store);
    return store;
  };
  /** A store whose first transaction has opened the WAL (always in the thread pool) and synced it. */
  const storeWithOpenWal = async (fileSystem: WalFileSystem, held: { release(): void }[]) => {
    const store = storeWith(fileSystem);
    const opened = watch(store.transaction((tx) => tx.appendAudit(auditEvent())));
    await until(() => held.length === 1);
    held[0]?.release();
    await until(() => opened.settled);
    return store;
  };

  it("hands a transaction's result back only after a WAL sync that started after its commit", async () => {
    const { fileSystem, calls, held } = heldSyncs(file);
    const store = storeWith(fileSystem);
    expect(calls, "the WAL is not opened before a transaction").toEqual([]);
    const written = watch(store.transaction((tx) => tx.appendAudit(auditEvent())));
    await until(() => held.length === 1);
    expect(calls).toEqual(["open outbox.db-wal", "sync directory", "datasync"]);
    expect(held[0]?.sawRows, "committed before the sync started").toBe(1);
    await until(() => written.settled);
    expect(written.settled, "not handed back while its sync runs").toBe(false);
    held[0]?.release();
    await until(() => written.settled);
    expect(written).toMatchObject({ settled: true, value: "1" });
  });

  it("makes reads wait for a sync too: nothing is handed back that is not yet on disk", async () => {
    const { fileSystem, held } = heldSyncs(file);
    const store = storeWith(fileSystem);
    const write = store.transaction((tx) => tx.addOutbound(outboundRow({ key: "fl_read" })));
    await until(() => held.length === 1);
    held[0]?.release();
    const id = await write;
    const read = watch(store.getOutbound(id));
    await until(() => held.length === 2);
    await until(() => read.settled);
    expect(read.settled).toBe(false);
    held[1]?.release();
    await until(() => read.settled);
    expect(read.value).toMatchObject({ key: "fl_read" });
  });

  it("shares syncs: commits made while one runs wait for the next, and one sync serves them all", async () => {
    const { fileSystem, calls, held } = heldSyncs(file);
    const store = storeWith(fileSystem);
    const first = watch(store.transaction((tx) => tx.appendAudit(auditEvent())));
    await until(() => held.length === 1);
    // Three commits while the first sync runs: none is served by it (it started before they committed).
    const later = [1, 2, 3].map(() => watch(store.transaction((tx) => tx.appendAudit(auditEvent()))));
    const rows = () => new Database(file, { readonly: true }).prepare("SELECT COUNT(*) AS n FROM audit");
    await until(() => (rows().get() as { n: number }).n === 4);
    expect(held).toHaveLength(1);
    held[0]?.release();
    await until(() => first.settled && held.length === 2);
    expect(first.value).toBe("1");
    expect(later.map((state) => state.settled)).toEqual([false, false, false]);
    expect(held[1]?.sawRows, "the second sync started after all three committed").toBe(4);
    held[1]?.release();
    await until(() => later.every((state) => state.settled));
    expect(later.map((state) => state.value)).toEqual(["2", "3", "4"]);
    expect(calls.filter((call) => call === "datasync")).toHaveLength(2);
  });

  it("runs the next transaction's statements while the previous one syncs, and tells its caller at commit", async () => {
    const { fileSystem, held } = heldSyncs(file);
    const store = storeWith(fileSystem);
    const events: string[] = [];
    const first = store.transaction((tx) => tx.appendAudit(auditEvent()), {
      committed: () => events.push("first committed"),
    });
    await until(() => held.length === 1);
    const second = store.transaction(async (tx) => {
      events.push("second runs");
      return tx.appendAudit(auditEvent());
    });
    await until(() => events.length === 2);
    expect(events).toEqual(["first committed", "second runs"]);
    held[0]?.release();
    await until(() => held.length === 2);
    held[1]?.release();
    expect([await first, await second]).toEqual(["1", "2"]);
  });

  it("close() waits for syncs in flight, then closes the WAL handle; the handle is opened once", async () => {
    const { fileSystem, calls, held } = heldSyncs(file);
    const store = storeWith(fileSystem);
    for (let round = 0; round < 3; round++) {
      const write = store.transaction((tx) => tx.appendAudit(auditEvent()));
      await until(() => held.length === round + 1);
      held[round]?.release();
      await write;
    }
    const last = watch(store.transaction((tx) => tx.appendAudit(auditEvent())));
    await until(() => held.length === 4);
    const closed = watch(store.close());
    await until(() => closed.settled);
    expect(closed.settled, "close() waits for the sync in flight").toBe(false);
    expect(calls).not.toContain("close");
    held[3]?.release();
    await until(() => closed.settled && last.settled);
    expect(last.value).toBe("4");
    expect(closed.error).toBeUndefined();
    expect(calls.filter((call) => call.startsWith("open"))).toEqual(["open outbox.db-wal"]);
    expect(calls.at(-1)).toBe("close");
  });

  it("keeps syncing the same file after a checkpoint truncates the WAL", async () => {
    const handles: Awaited<ReturnType<typeof open>>[] = [];
    const store = storeWith({
      open: async (path) => {
        const handle = await open(path, "r");
        handles.push(handle);
        return handle;
      },
      syncDirectory: async () => undefined,
    });
    await store.transaction((tx) => tx.appendAudit(auditEvent()));
    expect(handles).toHaveLength(1);
    const other = new Database(file);
    other.pragma("wal_checkpoint(TRUNCATE)");
    other.close();
    expect(statSync(`${file}-wal`).size, "truncated").toBe(0);
    await store.transaction((tx) => tx.appendAudit(auditEvent()));
    expect(handles, "not opened again").toHaveLength(1);
    const held = await (handles[0] as Awaited<ReturnType<typeof open>>).stat();
    expect(held.ino, "the same inode as the file SQLite writes").toBe(statSync(`${file}-wal`).ino);
    expect(held.size, "the new commit is in the file the store syncs").toBeGreaterThan(0);
  });

  it("after a failed sync: that transaction says it may not be on disk, and the store refuses further work", async () => {
    const { fileSystem, calls, held } = heldSyncs(file);
    const store = storeWith(fileSystem);
    const write = watch(store.transaction((tx) => tx.appendAudit(auditEvent())));
    await until(() => held.length === 1);
    held[0]?.fail(Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" }));
    await until(() => write.settled);
    expect(write.error).toBeInstanceOf(StoreUnavailableError);
    expect(write.error).toMatchObject({ retryable: false, committed: "unknown" });
    expect((write.error as Error).message).toMatch(/syncing .*outbox\.db-wal to disk failed \(EIO/);
    const refused = await store.transaction((tx) => tx.appendAudit(auditEvent())).catch((error) => error);
    expect(refused).toMatchObject({ code: "store_unavailable", retryable: false, committed: false });
    expect((refused as Error).message).toMatch(/nothing of this transaction was written/);
    await store.close();
    expect(calls.at(-1)).toBe("close");
  });

  it("syncs on the event loop a transaction its caller says may (one call at a time), once the WAL is open", async () => {
    const { fileSystem, calls, held } = heldSyncs(file);
    const store = storeWith(fileSystem);
    const onLoop = { syncOnLoop: () => true };
    // The first sync opens the WAL (and syncs its directory) in the thread pool, whatever the caller says.
    const first = watch(store.transaction((tx) => tx.appendAudit(auditEvent()), onLoop));
    await until(() => held.length === 1);
    held[0]?.release();
    await until(() => first.settled);
    const asked: string[] = [];
    const second = await store.transaction((tx) => tx.appendAudit(auditEvent()), {
      syncOnLoop: () => {
        asked.push(`asked after ${calls.length} calls`);
        return true;
      },
    });
    expect(second).toBe("2");
    expect(asked, "asked once, after the transaction ended").toHaveLength(1);
    expect(calls.slice(-1)).toEqual(["datasync on the loop"]);
    expect(held, "no sync handed to the thread pool").toHaveLength(1);
    // A caller that says no, or says nothing, is synced in the thread pool as before.
    for (const hooks of [{ syncOnLoop: () => false }, undefined]) {
      const later = watch(store.transaction((tx) => tx.appendAudit(auditEvent()), hooks));
      await until(() => held.length === (hooks === undefined ? 3 : 2));
      expect(later.settled).toBe(false);
      held.at(-1)?.release();
      await until(() => later.settled);
    }
    expect(calls.filter((call) => call === "datasync on the loop")).toHaveLength(1);
  });

  it("does not sync on the event loop while other uses of the file wait: they share one sync in the thread pool", async () => {
    const { fileSystem, calls, held } = heldSyncs(file);
    const store = await storeWithOpenWal(fileSystem, held);
    const onLoop = { syncOnLoop: () => true };
    // Three transactions queued at once: each but the last ends with another waiting behind it.
    const three = [1, 2, 3].map(() => watch(store.transaction((tx) => tx.appendAudit(auditEvent()), onLoop)));
    // Release each sync handed to the thread pool as it comes, until all three are back.
    await until(() => {
      for (const sync of held) sync.release();
      return three.every((state) => state.settled);
    });
    expect(three.map((state) => state.value)).toEqual(["2", "3", "4"]);
    // The first two ended with another waiting: the thread pool (the second's sync starts when the first's
    // ends). Only the last, with none behind it, on the loop.
    expect(calls.slice(3)).toEqual(["datasync", "datasync on the loop", "datasync"]);
  });

  it("after a failed sync on the event loop: that transaction may not be on disk, and the store refuses further work", async () => {
    const { fileSystem, held, failNextSyncOnLoop } = heldSyncs(file);
    const store = await storeWithOpenWal(fileSystem, held);
    failNextSyncOnLoop(Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" }));
    const failed = await store
      .transaction((tx) => tx.appendAudit(auditEvent()), { syncOnLoop: () => true })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(StoreUnavailableError);
    expect(failed).toMatchObject({ retryable: false, committed: "unknown" });
    expect((failed as Error).message).toMatch(/syncing .*outbox\.db-wal to disk failed \(EIO/);
    const refused = await store.transaction((tx) => tx.appendAudit(auditEvent())).catch((error) => error);
    expect(refused).toMatchObject({ code: "store_unavailable", retryable: false, committed: false });
  });

  it("checkpoints from a worker thread: the database file fills while the store's own checkpoint is held back", async () => {
    const store = openSqliteStore(file);
    stores.push(store);
    const connection = new Database(file, { readonly: true });
    const autocheckpoint = (() => {
      try {
        return connection.pragma("wal_autocheckpoint", { simple: true });
      } finally {
        connection.close();
      }
    })();
    // A second connection reads its own setting, the default: the store's is checked by its effect.
    expect(autocheckpoint).toBe(1000);
    const before = statSync(file).size;
    // Far below the store's backstop of 10,000 pages: only the worker checkpoints these.
    for (let commit = 0; commit < 40; commit++) {
      await store.transaction(async (tx) => {
        for (let row = 0; row < 20; row++) await tx.appendAudit(auditEvent());
      });
    }
    for (let wait = 0; wait < 100 && statSync(file).size <= before; wait++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statSync(file).size, "pages copied into the database file").toBeGreaterThan(before);
    await store.close();
    const reopened = new Database(file, { readonly: true });
    try {
      expect((reopened.prepare("SELECT COUNT(*) AS n FROM audit").get() as { n: number }).n).toBe(800);
    } finally {
      reopened.close();
    }
  });

  it("spaces checkpoints by the WAL frames they find: doubled below 500, halved above 2,000, within 16 to 1,024 commits", () => {
    expect(nextCheckpointInterval(16, 240)).toBe(32);
    expect(nextCheckpointInterval(32, 480)).toBe(64);
    expect(nextCheckpointInterval(64, 960)).toBe(64);
    expect(nextCheckpointInterval(64, 2_001)).toBe(32);
    expect(nextCheckpointInterval(16, 9_000)).toBe(16);
    expect(nextCheckpointInterval(1024, 0)).toBe(1024);
  });

  it('with commitSync: "in-loop" it never touches the WAL itself (SQLite syncs in COMMIT)', async () => {
    const { fileSystem, calls } = heldSyncs(file);
    const store = openSqliteStore(file, { commitSync: "in-loop" }, { walFileSystem: fileSystem });
    stores.push(store);
    await store.transaction((tx) => tx.appendAudit(auditEvent()));
    expect(await store.getOutbound("1")).toBeUndefined();
    expect(calls).toEqual([]);
  });
});
