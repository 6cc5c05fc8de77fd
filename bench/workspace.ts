/**
 * The workspace's list page with 10,000 open items on a SQLite file: server time of the first page
 * (the request handled in process, no network), the first request after start (the tags read from the
 * audit log) and later ones. Goal: under 200 ms.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteStore } from "../src/store/sqlite/index.js";
import { openQueueItem } from "../src/store/store.js";
import { storeSource } from "../src/workspace/source.js";
import { createWorkspace } from "../src/workspace/workspace.js";
import { report } from "./measure.js";

const open = 10_000;
const dir = mkdtempSync(join(tmpdir(), "formletter-workspace-bench-"));
const store = sqliteStore(join(dir, "outbox.db"));
const start = Date.now() - 10 * 3_600_000;
const reasons = ["model_escalated", "approval_required", "limit_exceeded", "slot_rejected"] as const;
for (let batch = 0; batch < open / 500; batch += 1) {
  await store.transaction(async (tx) => {
    for (let index = batch * 500; index < (batch + 1) * 500; index += 1) {
      const at = start + index * 3_000;
      const reason = reasons[index % reasons.length] ?? "model_escalated";
      const auditId = await tx.appendAudit({
        at,
        type: "decision",
        ticketId: `T-${index}`,
        runId: "run-1",
        template: `template_${index % 7}`,
        outcome: "escalate",
        reason,
        key: undefined,
        actor: "outbox",
        data: {
          tags: { category: `c${index % 5}`, region: `r${index % 3}` },
          detail: "waiting for a person",
        },
      });
      await tx.addQueueItem(
        openQueueItem({
          reason,
          ticketId: `T-${index}`,
          runId: "run-1",
          template: `template_${index % 7}`,
          detail: "waiting for a person",
          createdAt: at,
          auditId,
          ...(reason === "approval_required"
            ? {
                draft: {
                  template: `template_${index % 7}`,
                  channel: "email",
                  to: `c${index}@shop.example`,
                  subject: "Your refund",
                  text: "Hello,\n\nyour refund was issued.\n",
                },
              }
            : {}),
        }),
      );
    }
  });
}

// The workspace's clock is moved on instead of waiting: past the list's cache (2 s), past a full read (60 s).
let offset = 0;
const workspace = createWorkspace({
  source: storeSource(store),
  clock: () => Date.now() + offset,
  verifyOperator: () => ({ ok: true, operator: "bench", expiresAt: Date.now() + 86_400_000 }),
  sessionLifetimeMs: 86_400_000,
  idleTimeoutMs: 86_400_000,
});
const base = "http://127.0.0.1/queue";
const form = await workspace.fetch(new Request(`${base}/sign-in`));
const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
const pairing = (form.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
const signedIn = await workspace.fetch(
  new Request(`${base}/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: pairing },
    body: new URLSearchParams({ csrf, token: "t" }).toString(),
  }),
);
const session = (signedIn.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";

const timed = async (path: string) => {
  const began = performance.now();
  const answer = await workspace.fetch(new Request(`${base}${path}`, { headers: { cookie: session } }));
  await answer.text();
  if (answer.status !== 200) throw new Error(`bench: ${path} answered ${answer.status}`);
  return performance.now() - began;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

console.log(`workspace list page, ${open.toLocaleString("en-US")} open items on SQLite`);
report("first request: whole queue and tags read, ms", (await timed("/")).toFixed(1));
const runs = {
  full: [] as number[],
  fresh: [] as number[],
  cached: [] as number[],
  filtered: [] as number[],
};
for (let round = 0; round < 10; round += 1) {
  offset += 61_000;
  runs.full.push(await timed("/"));
  // Past the list's cache: what changed since is read from the store, as after any change.
  offset += 2_100;
  runs.fresh.push(await timed("/"));
  runs.cached.push(await timed("/"));
  runs.filtered.push(await timed("/?reason=approval_required&tag=category%3Dc1&older=2"));
}
report("first page, whole queue read again (once a minute), median of 10, ms", median(runs.full).toFixed(1));
report("first page, changes read, median of 10, ms (goal < 200)", median(runs.fresh).toFixed(1));
report("first page, worst of 10 with changes read, ms", Math.max(...runs.fresh).toFixed(1));
report("first page from the list's cache, median of 10, ms", median(runs.cached).toFixed(1));
report("filtered first page from the cache, median of 10, ms", median(runs.filtered).toFixed(1));
workspace.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
