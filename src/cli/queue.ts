import type { Command } from "commander";
import { createBatcher } from "../outbox/batcher.js";
import { createQueueOperations } from "../outbox/queue.js";
import { isEscalationReason } from "../reasons.js";
import { type QueueItem, type QueueStatus, queueStatuses as statuses } from "../store/store.js";
import { printable } from "../terminal.js";
import { openStore } from "./open-store.js";
import { age, CliError, type CliIo, table } from "./output.js";

async function withQueue<T>(
  file: string,
  work: (queue: ReturnType<typeof createQueueOperations>) => Promise<T>,
): Promise<T> {
  const store = openStore(file);
  try {
    return await work(createQueueOperations(store, createBatcher(store), Date.now, "live"));
  } finally {
    await store.close();
  }
}

/** `formletter queue list|show|claim|approve|reject|resolve --db FILE [--json]`. */
export function registerQueueCommands(program: Command, io: CliIo): void {
  const queue = program.command("queue").description("the human queue of an outbox database");
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
        throw new CliError(`--reason ${options.reason} is not an escalation reason`);
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
            item.id,
            item.status,
            item.reason,
            item.template ?? "-",
            item.ticketId,
            age(item.createdAt, now),
            item.claimedBy ?? "-",
            printable(item.detail),
          ]),
        ),
      );
      io.stdout(
        `${page.items.length} item(s)${page.nextCursor ? `; more with --cursor ${page.nextCursor}` : ""}\n`,
      );
    });

  queue
    .command("show <id>")
    .description("one queue item, with the draft a human would approve")
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .option("--json", "machine-readable output")
    .action(async (id: string, options) => {
      const item = await withQueue(options.db, (q) => q.get(id));
      if (item === undefined) throw new CliError(`queue item ${id} does not exist`);
      if (options.json) return json(item);
      io.stdout(showItem(item));
    });

  queue
    .command("claim <id>")
    .description("take an item, so others see it is being handled")
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .requiredOption("--by <who>", "who takes it")
    .option("--json", "machine-readable output")
    .action(async (id: string, options) => {
      const item = await withQueue(options.db, (q) => q.claim(id, { by: options.by }));
      options.json ? json(item) : io.stdout(`claimed ${item.id} for ${item.claimedBy}\n`);
    });

  queue
    .command("approve <id>")
    .description("approve the item's draft exactly as it is; the running outbox delivers it")
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .requiredOption("--by <who>", "who approves")
    .option("--json", "machine-readable output")
    .action(async (id: string, options) => {
      const result = await withQueue(options.db, (q) => q.approve(id, { by: options.by }));
      if (options.json) return json(result);
      io.stdout(
        result.approvedNow
          ? `approved ${id}: message ${result.outbound?.id} to ${result.outbound?.message.to} is queued for delivery; the outbox sends it on its next flush()\n`
          : `${id} was already approved; nothing new is sent\n`,
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
      const item = await withQueue(options.db, (q) =>
        q.reject(id, { by: options.by, ...(options.note ? { note: options.note } : {}) }),
      );
      options.json ? json(item) : io.stdout(`rejected ${item.id}\n`);
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
      const item = await withQueue(options.db, (q) =>
        q.resolve(id, {
          by: options.by,
          resolution: options.resolution,
          ...(options.note ? { note: options.note } : {}),
        }),
      );
      options.json ? json(item) : io.stdout(`resolved ${item.id}: ${item.resolution}\n`);
    });
}

function showItem(item: QueueItem): string {
  const lines = [
    `queue item ${item.id} · ${item.status} · ${item.reason}`,
    `ticket     ${item.ticketId} (run ${item.runId})`,
    `template   ${item.template ?? "-"}`,
    `detail     ${printable(item.detail)}`,
    `created    ${new Date(item.createdAt).toISOString()}`,
  ];
  if (item.claimedBy) lines.push(`claimed by ${item.claimedBy}`);
  if (item.closedBy)
    lines.push(
      `closed by  ${item.closedBy}: ${item.resolution ?? ""}${item.closeNote ? ` (${printable(item.closeNote)})` : ""}`,
    );
  if (item.note) lines.push(`model note ${printable(item.note)}`);
  if (item.draft) {
    lines.push("", `draft (${item.draft.channel}) to ${item.draft.to}`);
    if (item.draft.subject !== undefined) lines.push(`subject    ${printable(item.draft.subject)}`);
    lines.push(
      "",
      ...printable(item.draft.text)
        .split("\n")
        .map((line) => `  ${line}`),
    );
  }
  return `${lines.join("\n")}\n`;
}
