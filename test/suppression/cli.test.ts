import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/program.js";
import { createOutbox, memoryTransport } from "../../src/index.js";
import { destinationHash } from "../../src/outbox/first-contact.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import type { AuditEvent } from "../../src/store/store.js";
import { refundCatalog, refundProposal, refundTicket } from "../fixtures/refunds.js";

const contactKey = "a secret of at least thirty-two bytes, for tests";
let directory: string;
let file: string;

async function cli(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

/** An outbox on the file, for one step: the CLI and the outbox take turns on it. */
async function withOutbox<T>(
  work: (
    outbox: ReturnType<typeof createOutbox>,
    send: (email: string, id: string) => ReturnType<ReturnType<typeof createOutbox>["handle"]>,
  ) => Promise<T>,
) {
  const catalog = refundCatalog({ refunds: { values: ["refund.amount"], max: { EUR: { day: 1_000_000 } } } });
  const tickets = new Map<string, ReturnType<typeof refundTicket>>();
  const outbox = createOutbox({
    catalog,
    load: (id) => tickets.get(id),
    store: sqliteStore(file),
    transports: { email: memoryTransport() },
    contactKey,
  });
  const send = (email: string, id: string) => {
    const ticket = refundTicket(id, {}, {}, email);
    tickets.set(id, ticket);
    return outbox.handle({ ticketId: id, output: refundProposal(catalog, ticket), runId: `run-${id}` });
  };
  try {
    return await work(outbox, send);
  } finally {
    await outbox.close();
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
    await withOutbox(async (outbox, send) => {
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
    const hash = destinationHash(contactKey, { channel: "email", to: "ana@shop.example" });
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

    await withOutbox(async (outbox, send) => {
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
