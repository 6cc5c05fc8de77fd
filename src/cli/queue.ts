import type { Command } from "commander";
import type { Expected } from "../core/decision/decision.js";
import { escalationReasons, isEscalationReason } from "../core/decision/reasons.js";
import { printableLine as line, printable } from "../core/message/sanitize.js";
import { type DetachedQueue, openHumanQueue } from "../outbox/index.js";
import { type QueueItem, type QueueStatus, queueStatuses as statuses } from "../store/index.js";
import { openStore } from "./open-store.js";
import { age, CliError, type CliIo, table } from "./output.js";
import { actorOption, itemMissing, queueAction, resolutionOption } from "./queue-refusal.js";
import { registerQueueUi } from "./queue-ui.js";

async function withQueue<T>(file: string, work: (queue: DetachedQueue) => Promise<T>): Promise<T> {
  const store = openStore(file);
  try {
    // The outbox's key, so an approved first contact records its destination as `serve` would.
    const contactKey = process.env.FORMLETTER_CONTACT_KEY;
    return await work(openHumanQueue(store, contactKey ? { contactKey } : {}));
  } finally {
    await store.close();
  }
}

/** `formletter queue list|show|claim|release|reject|resolve --db FILE [--json]`. */
export function registerQueueCommands(program: Command, io: CliIo): void {
  const queue = program.command("queue").description("the human queue of an outbox database");
  registerQueueUi(queue, io);
  const json = (value: unknown) => io.stdout(`${JSON.stringify(value, null, 2)}\n`);

  queue
    .command("list")
    .description("list queue items, oldest first")
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .option("--status <status>", `one of ${statuses.join(", ")}`, "open")
    .option("--reason <reason>", "only items escalated for this reason")
    .option("--template <id>", "only items of this template")
    .option("--limit <n>", "how many", "50")
    .option("--cursor <cursor>", "the next page, from a previous --json list")
    .option("--json", "machine-readable output")
    .action(async (options) => {
      const status = options.status === "all" ? undefined : (options.status as QueueStatus);
      if (status !== undefined && !statuses.includes(status))
        throw new CliError(`--status must be one of ${statuses.join(", ")} or all`);
      if (options.reason !== undefined && !isEscalationReason(options.reason))
        throw new CliError(`--reason must be an escalation reason: ${escalationReasons.join(", ")}`);
      const page = await withQueue(options.db, (q) =>
        q.list({
          ...(status ? { status } : {}),
          ...(options.reason ? { reason: options.reason } : {}),
          ...(options.template ? { template: options.template } : {}),
          ...(options.cursor ? { cursor: options.cursor } : {}),
          limit: Number(options.limit),
        }),
      );
      if (options.json) return json(page);
      const now = Date.now();
      io.stdout(
        table(
          ["id", "status", "reason", "template", "ticket", "age", "claimed by", "detail"],
          page.items.map((item) => [
            line(item.id),
            item.status,
            item.reason,
            line(item.template ?? "-"),
            line(item.ticketId),
            age(item.createdAt, now),
            line(item.claimedBy ?? "-"),
            line(item.detail),
          ]),
        ),
      );
      io.stdout(
        `${page.items.length} item(s)${page.nextCursor ? `; more with --cursor ${line(page.nextCursor)}` : ""}\n`,
      );
    });

  queue
    .command("show <id>")
    .description("one queue item, with the draft a human would approve")
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .option("--json", "machine-readable output")
    .action(async (id: string, options) => {
      const shown = await withQueue(options.db, (q) => q.get(id));
      if (shown === undefined) throw new CliError(itemMissing);
      const { facts, ...item } = shown;
      if (options.json) return json({ ...item, ...(facts ? { facts } : {}) });
      io.stdout(showItem(item, facts));
    });

  queue
    .command("claim <id>")
    .description("take an item, so others see it is being handled")
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .requiredOption("--by <who>", "who takes it")
    .option("--json", "machine-readable output")
    .action(async (id: string, options) => {
      const by = actorOption(options.by);
      const item = await withQueue(options.db, (q) => queueAction(q, id, "claim", () => q.claim(id, { by })));
      options.json ? json(item) : io.stdout(`claimed ${line(item.id)} for ${line(item.claimedBy ?? "")}\n`);
    });

  queue
    .command("release <id>")
    .description(
      "approve the item's draft exactly as it is and leave it to the running outbox, which sends it on its next flush()",
    )
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .requiredOption("--by <who>", "who approves")
    .option("--json", "machine-readable output")
    .action(async (id: string, options) => {
      const by = actorOption(options.by);
      const result = await withQueue(options.db, (q) =>
        queueAction(q, id, "release", () => q.release(id, { by })),
      );
      if (options.json) return json(result);
      io.stdout(
        result.keyUsedBefore
          ? `released ${line(result.item.id)}: nothing new is sent; its idempotency key already has message ${line(result.outbound?.id ?? "")} (${line(result.outbound?.status ?? "")}) to ${line(result.outbound?.message.to ?? "")}\n`
          : result.approvedNow
            ? `released ${line(result.item.id)}: message ${line(result.outbound?.id ?? "")} to ${line(result.outbound?.message.to ?? "")} waits for delivery; the outbox sends it on its next flush()\n`
            : `${line(result.item.id)} was already approved; nothing new is sent\n`,
      );
    });

  // `approve` sends at once, in the library and at the relay's operator endpoint. This process holds no
  // transports, so the command is refused with the two ways to do what was meant.
  queue
    .command("approve [args...]", { hidden: true })
    .allowUnknownOption()
    .action(() => {
      throw new CliError(
        "formletter queue approve would send the draft now, as outbox.queue.approve does, but this command holds no transports: use `formletter queue release <id> --db FILE --by WHO` to approve it for the running outbox's next flush(), or POST /v1/queue/<id>/approve to the relay to send it now",
      );
    });

  queue
    .command("reject <id>")
    .description("close the item without sending")
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .requiredOption("--by <who>", "who rejects")
    .option("--note <text>", "why")
    .option("--json", "machine-readable output")
    .action(async (id: string, options) => {
      const by = actorOption(options.by);
      const note = options.note ? { note: options.note } : {};
      const item = await withQueue(options.db, (q) =>
        queueAction(q, id, "reject", () => q.reject(id, { by, ...note })),
      );
      options.json ? json(item) : io.stdout(`rejected ${line(item.id)}\n`);
    });

  queue
    .command("resolve <id>")
    .description("close the item, saying how it was handled")
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .requiredOption("--by <who>", "who resolved it")
    .requiredOption("--resolution <text>", 'how, e.g. "replied by phone"')
    .option("--note <text>", "anything else")
    .option("--json", "machine-readable output")
    .action(async (id: string, options) => {
      const by = actorOption(options.by);
      const resolution = resolutionOption(options.resolution);
      const note = options.note ? { note: options.note } : {};
      const item = await withQueue(options.db, (q) =>
        queueAction(q, id, "resolve", () => q.resolve(id, { by, resolution, ...note })),
      );
      options.json ? json(item) : io.stdout(`resolved ${line(item.id)}: ${line(item.resolution ?? "")}\n`);
    });
}

/** One fact as a line: lists joined, an expected set by its kind. */
function factLine(name: string, value: unknown): string {
  if (name === "expected" && typeof value === "object" && value !== null) {
    const expected = value as Expected;
    switch (expected.kind) {
      case "records":
        return `${expected.fitting} ${expected.collection} record(s) fit`;
      case "templates":
        return `templates: ${expected.ids.join(", ")}`;
      case "codes":
        return `codes: ${expected.codes.join(", ")}`;
      case "slots":
        return `slots: ${expected.names.join(", ")}`;
      case "keys":
        return `keys: ${expected.keys.join(", ")}`;
    }
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** One item for a person to read: every stored value on its own labelled line, the draft's text as written. */
function showItem(item: QueueItem, facts: Readonly<Record<string, unknown>> | undefined): string {
  const lines = [
    `queue item ${line(item.id)} · ${item.status} · ${item.reason}`,
    `ticket     ${line(item.ticketId)} (run ${line(item.runId)})`,
    `template   ${line(item.template ?? "-")}`,
    `detail     ${line(item.detail)}`,
    ...Object.entries(facts ?? {})
      .filter(([name]) => name !== "note")
      .map(([name, value]) => `${name.padEnd(10)} ${line(factLine(name, value))}`),
    `created    ${new Date(item.createdAt).toISOString()}`,
  ];
  if (item.claimedBy) lines.push(`claimed by ${line(item.claimedBy)}`);
  if (item.closedBy)
    lines.push(
      `closed by  ${line(item.closedBy)}: ${line(item.resolution ?? "")}${item.closeNote ? ` (${line(item.closeNote)})` : ""}`,
    );
  if (item.note) lines.push(`model note ${line(item.note)}`);
  if (item.draft) {
    lines.push("", `draft (${item.draft.channel}) to ${line(item.draft.to)}`);
    if (item.draft.subject !== undefined) lines.push(`subject    ${line(item.draft.subject)}`);
    lines.push(
      "",
      ...printable(item.draft.text)
        .split("\n")
        .map((text) => `  ${text}`),
    );
  }
  return `${lines.join("\n")}\n`;
}
