import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe } from "vitest";
import type { Store } from "../../src/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { outageScenarios } from "./outage-scenarios.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const busyTimeoutMs = 100;

// Another process takes the file's write lock (BEGIN EXCLUSIVE) and holds it: every write transaction
// of the store waits its busy timeout and fails with SQLITE_BUSY, as it would behind a stuck writer, a
// backup holding the lock, or a long migration. Plain JavaScript, so the process starts quickly.
const lockHolder = `
const Database = require("better-sqlite3");
const { writeFileSync } = require("node:fs");
const [file, ms] = process.argv.slice(1);
const db = new Database(file);
db.pragma("busy_timeout = 10000");
db.exec("BEGIN EXCLUSIVE");
writeFileSync(file + ".locked", "");
setTimeout(() => { db.exec("ROLLBACK"); db.close(); }, Number(ms));
`;

function holdLock(file: string, ms: number): Promise<{ over: Promise<void> }> {
  const marker = `${file}.locked`;
  rmSync(marker, { force: true });
  const child = spawn(process.execPath, ["-e", lockHolder, file, String(ms)], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const over = new Promise<void>((resolve, reject) =>
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`lock holder exited ${code}: ${stderr}`)),
    ),
  );
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (existsSync(marker)) resolve({ over });
      else if (child.exitCode !== null) reject(new Error(`lock holder ended: ${stderr}`));
      else setTimeout(poll, 5);
    };
    poll();
  });
}

describe("outages of a SQLite file, locked by another process beyond the busy timeout", () => {
  let dir: string;
  let files = 0;
  let current: string | undefined;
  const stores: Store[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "formletter-outage-"));
  });
  afterAll(async () => {
    for (const store of stores) await store.close().catch(() => undefined);
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
      outage: (ms) => holdLock(current as string, ms),
      longerThanStoreRetries: busyTimeoutMs + 1_500,
    },
    30_000,
  );
});
