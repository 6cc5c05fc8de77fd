import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import type { AuditEvent } from "../../src/store/store.js";
import { cli as run } from "../cli/run.js";
import { hashOf, refundOutbox } from "./refund-outbox.js";

let directory: string;
let file: string;

const cli = (...argv: string[]) => run(argv);

/** An outbox on the file, for one step: the CLI and the outbox take turns on it. */
async function withOutbox<T>(work: (setUp: ReturnType<typeof refundOutbox>) => Promise<T>): Promise<T> {
  const setUp = refundOutbox(sqliteStore(file), { at: Date.now() });
  try {
    return await work(setUp);
  } finally {
    await setUp.outbox.close();
  }
}

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "formletter-suppression-cli-"));
  file = join(directory, "outbox.db");
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe("formletter suppression", () => {
  it("lists a suppressed destination by hash, lifts it with the operator audited, and the outbox sends to it again", async () => {
    await withOutbox(async ({ outbox, send }) => {
      const sent = await send("ana@shop.example", "T-1");
      await outbox.recordDeliveryEvents([
        {
          provider: "sendgrid",
          eventId: "ev-1",
          messageId: sent.delivery?.receiptId as string,
          status: "bounced",
          bounce: "hard",
        },
      ]);
      expect((await send("ana@shop.example", "T-2")).decision).toMatchObject({
        reason: "destination_suppressed",
      });
    });
    const hash = hashOf("ana@shop.example");
    const listed = await cli("suppression", "list", "--db", file);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(hash);
    expect(listed.stdout).toContain("hard_bounce");
    expect(listed.stdout).not.toContain("shop.example");
    expect(JSON.parse((await cli("suppression", "list", "--db", file, "--json")).stdout).items).toHaveLength(
      1,
    );

    const lifted = await cli(
      "suppression",
      "lift",
      hash,
      "--db",
      file,
      "--by",
      "ops-maria",
      "--note",
      "mailbox fixed",
    );
    expect(lifted).toMatchObject({ code: 0, stderr: "" });
    expect(lifted.stdout).toContain("ops-maria");
    const again = await cli("suppression", "lift", hash, "--db", file, "--by", "ops-maria");
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not suppressed/);

    await withOutbox(async ({ outbox, send }) => {
      expect((await send("ana@shop.example", "T-3")).decision.outcome).toBe("send");
      const events: AuditEvent[] = [];
      for await (const event of outbox.audit.query({ type: "suppression" })) events.push(event);
      expect(events.map((event) => [event.actor, event.data.action])).toEqual([
        ["sendgrid", "suppressed"],
        ["ops-maria", "lifted"],
      ]);
      expect(events[1]?.data.note).toBe("mailbox fixed");
    });
  });

  it("refuses an operator name that is not readable, and a destination that is not a full hash, writing nothing", async () => {
    await withOutbox(async () => undefined);
    const hash = "a".repeat(64);
    expect((await cli("suppression", "lift", hash, "--db", file, "--by", "\u202e\u200b")).stderr).toMatch(
      /--by/,
    );
    expect(
      (await cli("suppression", "lift", "ana@shop.example", "--db", file, "--by", "ops")).stderr,
    ).toMatch(/64 hexadecimal/);
    expect((await cli("suppression", "list", "--db", join(directory, "missing.db"))).code).toBe(1);
  });
});
