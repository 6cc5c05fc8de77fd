import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runCli } from "../../src/cli/program.js";
import {
  createCatalog,
  createOutbox,
  defineRecords,
  defineTemplate,
  memoryTransport,
} from "../../src/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import type { QueueItem } from "../../src/store/store.js";
import { message, outboundRow, queueItem } from "../store/conformance.js";

// A lettings agency asking contractors to confirm a repair visit; the quote template needs approval.
const records = defineRecords({
  jobs: z.object({ id: z.string(), ref: z.string(), contractorId: z.string() }),
  contractors: z.object({ id: z.string(), email: z.email() }),
});
const { slot } = records;
const base = {
  audience: "contractor",
  channel: "email" as const,
  to: slot.ref("contractors", { show: "email", match: { id: "job.contractorId" } }),
  slots: { job: slot.ref("jobs", { show: "ref" }) },
  limits: { perTicket: 1, perDay: 100 },
};
const catalog = createCatalog(records, [
  defineTemplate(records, {
    effect: "informational",
    ...base,
    id: "confirm_visit",
    description: "Ask to confirm the visit",
    subject: "Job {{job}}",
    body: "Please confirm the visit for job {{job}}.",
  }),
  defineTemplate(records, {
    effect: "irreversible",
    ...base,
    id: "accept_quote",
    description: "Accept the quote",
    subject: "Quote for {{job}}",
    body: "We accept your quote for job {{job}}.",
    approval: "human",
  }),
]);
const ticket = (id: string) => ({
  ticketId: id,
  jobs: [{ id: `j-${id}`, ref: `R-${id}`, contractorId: "c1" }],
  contractors: [{ id: "c1", email: "fix@plumbers.example.com" }],
});

let directory: string;
let file: string;

async function cli(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/** Fills a database with one escalation and one approval item, as a running outbox would. */
async function populate() {
  const transport = memoryTransport();
  const outbox = createOutbox({
    catalog,
    load: ticket,
    store: sqliteStore(file),
    transports: { email: transport },
  });
  const job = (id: string) => catalog.handles(ticket(id)).get("jobs", `j-${id}`);
  await outbox.handle({
    ticketId: "T1",
    output: { escalate: "needs_human", note: "caller was upset" },
    runId: "r1",
  });
  await outbox.handle({
    ticketId: "T2",
    output: { template: "accept_quote", slots: { job: job("T2") } },
    runId: "r2",
  });
  await outbox.close();
}

beforeEach(async () => {
  directory = mkdtempSync(join(tmpdir(), "formletter-cli-"));
  file = join(directory, "outbox.db");
  await populate();
});

afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe("formletter queue", () => {
  it("lists open items as a table, and as JSON with --json", async () => {
    const table = await cli("queue", "list", "--db", file);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^id\s+status\s+reason/);
    expect(table.stdout).toContain("model_escalated");
    expect(table.stdout).toContain("approval_required");
    expect(table.stdout).toContain("2 item(s)");
    const json = await cli("queue", "list", "--db", file, "--json", "--reason", "approval_required");
    const page = JSON.parse(json.stdout) as { items: QueueItem[] };
    expect(page.items.map((item) => item.reason)).toEqual(["approval_required"]);
  });

  it("shows an escalation's typed fields from the audit log, as lines and in --json", async () => {
    const { items } = JSON.parse(
      (await cli("queue", "list", "--db", file, "--json", "--reason", "model_escalated")).stdout,
    );
    const shown = await cli("queue", "show", items[0].id, "--db", file);
    expect(shown.stdout).toMatch(/^code\s+\w+/m);
    const json = JSON.parse((await cli("queue", "show", items[0].id, "--db", file, "--json")).stdout);
    expect(typeof json.facts.code).toBe("string");
  });

  it("shows an item with its draft", async () => {
    const { items } = JSON.parse(
      (await cli("queue", "list", "--db", file, "--json", "--reason", "approval_required")).stdout,
    );
    const shown = await cli("queue", "show", items[0].id, "--db", file);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("draft (email) to fix@plumbers.example.com");
    expect(shown.stdout).toContain("We accept your quote for job R-T2.");
  });

  it("says nothing new is sent when the item's key already has a message, and names that message", async () => {
    const store = sqliteStore(file);
    const key = "fl_key_used_before";
    const itemId = await store.transaction(async (tx) => {
      const sent = { ...message(1), to: "sent@example.com" };
      const outboundId = await tx.addOutbound(outboundRow({ key, message: sent, status: "delivered" }));
      const decision = {
        outcome: "send" as const,
        ticketId: "T9",
        template: "accept_quote",
        message: sent,
        values: {},
        choices: {},
        key,
      };
      const result = { decision, auditId: "1", outboundId, queueItemId: undefined };
      await tx.reserve({
        key,
        template: "accept_quote",
        ticketId: "T9",
        runId: "r9",
        at: Date.now(),
        result,
      });
      return tx.addQueueItem(
        queueItem({ reason: "limit_exceeded", template: "accept_quote", key, draft: message(2) }),
      );
    });
    await store.close();
    const approved = await cli("queue", "release", itemId, "--db", file, "--by", "ana");
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain("nothing new is sent");
    expect(approved.stdout).toContain("sent@example.com");
    expect(approved.stdout).not.toContain("waits for delivery");
  });

  it("releases a draft once; the outbox delivers exactly that draft on its next flush", async () => {
    const { items } = JSON.parse(
      (await cli("queue", "list", "--db", file, "--json", "--reason", "approval_required")).stdout,
    );
    // approve would mean "send now" here too; it is refused and changes nothing.
    const refused = await cli("queue", "approve", items[0].id, "--db", file, "--by", "ana");
    expect(refused.code).toBe(1);
    expect(JSON.parse((await cli("queue", "show", items[0].id, "--db", file, "--json")).stdout).status).toBe(
      "open",
    );
    const first = await cli("queue", "release", items[0].id, "--db", file, "--by", "ana");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("waits for delivery");
    const again = await cli("queue", "release", items[0].id, "--db", file, "--by", "ana");
    expect(again.stdout).toContain("already approved");

    const transport = memoryTransport();
    const outbox = createOutbox({
      catalog,
      load: ticket,
      store: sqliteStore(file),
      transports: { email: transport },
    });
    expect(await outbox.flush()).toEqual({ delivered: 1, failed: 0 });
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    await outbox.close();
    expect(transport.sent).toHaveLength(1);
    expect(transport.sent[0]?.message).toEqual(items[0].draft);
  });

  it("claims, rejects and resolves, refusing a second claimant", async () => {
    const { items } = JSON.parse((await cli("queue", "list", "--db", file, "--json")).stdout);
    const [escalation, approval] = items as [QueueItem, QueueItem];
    expect((await cli("queue", "claim", escalation.id, "--db", file, "--by", "ana")).code).toBe(0);
    const taken = await cli("queue", "claim", escalation.id, "--db", file, "--by", "ben");
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("claimed by ana");
    const resolved = await cli(
      "queue",
      "resolve",
      escalation.id,
      "--db",
      file,
      "--by",
      "ana",
      "--resolution",
      "called back",
    );
    expect(resolved.stdout).toContain("called back");
    expect(
      (await cli("queue", "reject", approval.id, "--db", file, "--by", "ben", "--note", "too high")).code,
    ).toBe(0);
    const open = JSON.parse((await cli("queue", "list", "--db", file, "--json")).stdout);
    expect(open.items).toEqual([]);
  });

  it.each([
    [["queue", "list", "--db", "/nonexistent/outbox.db"], "no outbox database"],
    [["queue", "show", "999", "--db", "FILE"], "does not exist"],
    [["queue", "list", "--db", "FILE", "--status", "gone"], "--status must be one of"],
    [["queue", "list", "--db", "FILE", "--reason", "bored"], "--reason must be an escalation reason"],
    [["queue", "release", "1", "--db", "FILE", "--by", "ana"], "has no draft"],
    // approve sends at once elsewhere; here it is refused with the two ways to do what was meant.
    [["queue", "approve", "1", "--db", "FILE", "--by", "ana"], "formletter queue release"],
  ])("refuses %j with one line on stderr and exit code 1", async (argv, message) => {
    const result = await cli(...argv.map((arg) => (arg === "FILE" ? file : arg)));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  // Names a person cannot see, or that turn the text after them around: the relay's one rule.
  it.each([
    ["empty", ""],
    ["only spaces", "   "],
    ["only a zero-width space", "\u200b"],
    ["only bidi marks", "\u200e\u200f"],
    ["a bidi override inside", "ana\u202eevil"],
    ["a control character", "ana\u0007"],
    ["a line break", "ana\nben"],
    ["only a Hangul filler", "\u3164"],
    ["only the blank Braille pattern", "\u2800"],
    ["only a combining mark", "\u0301"],
    ["over 200 characters", "a".repeat(201)],
  ])("refuses --by %s on every action, and changes nothing", async (_name, by) => {
    const { items } = JSON.parse((await cli("queue", "list", "--db", file, "--json")).stdout);
    const [escalation, approval] = items as [QueueItem, QueueItem];
    for (const argv of [
      ["claim", escalation.id],
      ["release", approval.id],
      ["reject", approval.id],
      ["resolve", escalation.id, "--resolution", "called back"],
    ]) {
      const [action = "", id = "", ...rest] = argv;
      const result = await cli("queue", action, id, "--db", file, "--by", by, ...rest);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^formletter: --by must name who acts: 1 to 200 characters/);
    }
    const after = JSON.parse((await cli("queue", "list", "--db", file, "--json")).stdout);
    expect(after.items.map((item: QueueItem) => item.status)).toEqual(["open", "open"]);
  });

  it("takes a name of any script, trimmed", async () => {
    const { items } = JSON.parse((await cli("queue", "list", "--db", file, "--json")).stdout);
    const claimed = await cli("queue", "claim", items[0].id, "--db", file, "--by", "  Zoë 李 ", "--json");
    expect(claimed.code).toBe(0);
    expect(JSON.parse(claimed.stdout).claimedBy).toBe("Zoë 李");
  });

  it("never repeats an id, a reason, a resolution or a time it refuses", async () => {
    const canary = "Cnry-queue-x7Qp";
    const refusals = [
      ["queue", "show", canary, "--db", file],
      ["queue", "claim", canary, "--db", file, "--by", "ana"],
      ["queue", "release", canary, "--db", file, "--by", "ana"],
      ["queue", "reject", canary, "--db", file, "--by", "ana"],
      ["queue", "resolve", canary, "--db", file, "--by", "ana", "--resolution", "done"],
      ["queue", "resolve", "1", "--db", file, "--by", "ana", "--resolution", ` ${canary}${"x".repeat(200)}`],
      ["queue", "claim", "1", "--db", file, "--by", `${canary}\u202e`],
      ["queue", "list", "--db", file, "--reason", canary],
      ["queue", "list", "--db", file, "--status", canary],
      ["report", "--db", file, "--since", canary],
      ["report", "--db", file, "--until", `${canary}1d`],
      ["report", "--db", file, "--by", `${canary}`],
      ["report", "--db", file, "--volume", canary],
    ];
    for (const argv of refusals) {
      const result = await cli(...argv);
      expect(result.code, argv.join(" ")).toBe(1);
      expect(result.stderr, argv.join(" ")).not.toContain(canary);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("a missing required option is a usage error, not a crash", async () => {
    const result = await cli("queue", "release", "1", "--db", file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--by");
  });
});

describe("formletter --version", () => {
  it("prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    const result = await cli("--version");
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });
});
