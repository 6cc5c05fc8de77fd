import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startQueueUi } from "../../src/cli/queue-ui.js";
import { createOutbox, memoryTransport } from "../../src/index.js";
import { mintOperatorToken, mintTaskToken } from "../../src/relay/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { agentSecret, Browser, operatorSecret, refundProposal, shopCatalog, shopTicket } from "./rig.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An outbox file holding one approval item, written by an outbox that has since stopped. */
async function outboxFile(): Promise<{ file: string; id: string }> {
  const dir = mkdtempSync(join(tmpdir(), "formletter-queue-ui-"));
  dirs.push(dir);
  const file = join(dir, "outbox.db");
  const outbox = createOutbox({
    catalog: shopCatalog,
    load: shopTicket,
    store: sqliteStore(file),
    transports: { email: memoryTransport() },
  });
  const result = await outbox.handle({ ticketId: "T-1", runId: "run-1", output: refundProposal("T-1") });
  await outbox.close();
  return { file, id: result.queueItemId ?? "" };
}

/** A GET naming another Host, as a page on a rebound DNS name would send it. */
function withHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("formletter queue --ui", () => {
  it("serves the workspace on loopback: the printed token signs in, approving releases the draft for the next flush", async () => {
    const { file, id } = await outboxFile();
    const ui = await startQueueUi({ db: file, by: "ana", port: 0 });
    try {
      expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/queue\/$/);
      const browser = new Browser(new URL(ui.url).origin);
      expect((await browser.signIn(ui.token)).status).toBe(303);
      const page = await browser.request(`/queue/items/${id}`);
      // No transports here: the approval is a release, and no "send now" is offered.
      expect(page.text).toContain('data-action="release"');
      expect(page.text).not.toContain('data-action="approve"');
      const released = await browser.request(`/queue/items/${id}/release`, {
        form: { csrf: Browser.csrfOf(page.text) },
      });
      expect(released.headers.get("location")).toContain("done=released");
      expect(await withHost(ui.url, "evil.example")).toBe(421);
    } finally {
      await ui.close();
    }
    const store = sqliteStore(file);
    const item = await store.getQueueItem(id);
    expect(item).toMatchObject({ status: "approved", closedBy: "ana" });
    expect((await store.getOutbound(item?.outboundId ?? ""))?.status).toBe("pending");
    await store.close();
  });

  it("opens for no token but its own: not a relay's operator token, not a task token", async () => {
    const { file } = await outboxFile();
    const ui = await startQueueUi({ db: file, by: "ana", port: 0 });
    try {
      const origin = new URL(ui.url).origin;
      for (const token of [
        await mintOperatorToken({ secret: operatorSecret, operator: "ana" }),
        await mintTaskToken({ secret: agentSecret, ticketId: "T-1", runId: "run-1" }),
      ])
        expect((await new Browser(origin).signIn(token)).status).toBe(401);
    } finally {
      await ui.close();
    }
  });
});
