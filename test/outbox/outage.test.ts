import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe } from "vitest";
import type { Store } from "../../src/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { outageScenarios } from "./outage-scenarios.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const busyTimeoutMs = 50;

// Another process takes a file's write lock (BEGIN EXCLUSIVE) and holds it until told to let go: every
// write transaction of the store waits its busy timeout and fails with SQLITE_BUSY, as it would behind a
// stuck writer, a backup holding the lock, or a long migration. One process serves every scenario, a
// line on its stdin a command: "lock <file>" answers "locked" once it holds the lock, "unlock" answers
// "unlocked" once it let go. Plain JavaScript, so the process starts quickly.
const lockHolder = `
const Database = require("better-sqlite3");
const { createInterface } = require("node:readline");
let db;
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.startsWith("lock ")) {
    db = new Database(line.slice(5));
    db.pragma("busy_timeout = 10000");
    db.exec("BEGIN EXCLUSIVE");
    process.stdout.write("locked\\n");
  } else if (line === "unlock") {
    db.exec("ROLLBACK");
    db.close();
    process.stdout.write("unlocked\\n");
  }
});
`;

/** The lock-holding process, started once; `send` writes a command and resolves with its answer. */
function startLockHolder() {
  const child = spawn(process.execPath, ["-e", lockHolder], {
    cwd: root,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const waiting: { resolve: (answer: string) => void; reject: (error: Error) => void }[] = [];
  createInterface({ input: child.stdout }).on("line", (answer) => waiting.shift()?.resolve(answer));
  const exited = new Promise<void>((resolve) =>
    child.on("exit", (code) => {
      for (const pending of waiting.splice(0))
        pending.reject(new Error(`lock holder exited ${code}: ${stderr}`));
      resolve();
    }),
  );
  const send = (command: string, expected: string) =>
    new Promise<void>((resolve, reject) => {
      if (child.exitCode !== null) {
        reject(new Error(`lock holder ended: ${stderr}`));
        return;
      }
      waiting.push({
        resolve: (answer) =>
          answer === expected ? resolve() : reject(new Error(`lock holder said ${answer}: ${stderr}`)),
        reject,
      });
      child.stdin.write(`${command}\n`);
    });
  return {
    async outage(file: string) {
      await send(`lock ${file}`, "locked");
      return { end: () => send("unlock", "unlocked") };
    },
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}

describe("outages of a SQLite file, locked by another process beyond the busy timeout", () => {
  let dir: string;
  let files = 0;
  let current: string | undefined;
  let holder: ReturnType<typeof startLockHolder>;
  const stores: Store[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "formletter-outage-"));
    holder = startLockHolder();
  });
  afterAll(async () => {
    for (const store of stores) await store.close().catch(() => undefined);
    await holder?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  outageScenarios(
    {
      store: async () => {
        current = join(dir, `outbox-${++files}.db`);
        const store = sqliteStore(current, { busyTimeoutMs });
        stores.push(store);
        return store;
      },
      outage: () => holder.outage(current as string),
    },
    30_000,
  );
});
