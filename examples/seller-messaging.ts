/**
 * Seller messaging, end to end: a month of recorded buyer tickets (records plus the model's output for
 * each) goes through an outbox on a SQLite file, as in production: decided by the seller catalog,
 * limited, made durable, delivered by the console transport (into .formletter/sent.log), or queued for
 * a person. It ends with the open human queue.
 *
 *   npm run demo                                   # examples/data/tickets.jsonl
 *   npx tsx examples/seller-messaging.ts my.jsonl  # any file of the same shape
 */

import { appendFileSync, createReadStream, rmSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import {
  consoleTransport,
  createOutbox,
  type Decision,
  type EscalationReason,
  type HandleResult,
  type Outbox,
} from "formletter";
import { formatSummary, observedDays, parseHistoryLine, reportFromAudit } from "formletter/metrics";
import { sqliteStore } from "formletter/sqlite";
import { sellerCatalog } from "../templates/seller.js";

const database = ".formletter/demo.db";
const sentLog = ".formletter/sent.log";

/** One handled ticket of the history file. */
interface Decided {
  readonly line: number;
  readonly ticketId: string;
  readonly category: string;
  readonly decision: Decision;
  readonly result: HandleResult;
}

/** A line of the history file that is not a ticket; it is counted and skipped. */
interface Malformed {
  readonly line: number;
  readonly problem: string;
}

/** Reads the history file one line at a time (constant memory) and hands each ticket to the outbox. */
async function* handleHistory(
  path: string,
  outbox: Outbox,
  current: { records: unknown },
  span: { first: number; last: number },
): AsyncGenerator<Decided | Malformed> {
  const lines = createInterface({
    input: createReadStream(path, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === "") continue;
    const ticket = parseHistoryLine(text);
    if ("problem" in ticket) {
      yield { line, problem: ticket.problem };
      continue;
    }
    if (ticket.at !== undefined) {
      span.first = Math.min(span.first, ticket.at);
      span.last = Math.max(span.last, ticket.at);
    }
    const category = ticket.tags?.category ?? "-";
    // The loader stands in for your system of record: here, the records recorded with the ticket.
    // handle() never throws on bad output or records: every ticket ends sent or in the queue.
    current.records = ticket.records;
    const tags = ticket.tags ?? {};
    const result = await outbox.handle({
      ticketId: ticket.ticketId,
      output: ticket.output,
      runId: `run-${ticket.ticketId}`,
      tags,
    });
    yield { line, ticketId: ticket.ticketId, category, decision: result.decision, result };
  }
}

const percent = (part: number, whole: number): string =>
  whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(1)}%`;

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The detail worth a glance: which order, the amount, and the keys the model chose from fixed lists. */
function keyDetail(
  template: string,
  values: Readonly<Record<string, string>>,
  choices: Readonly<Record<string, string>>,
): string {
  const choiceSlots =
    sellerCatalog.template(template)?.slots.filter((compiled) => compiled.slot.kind === "choice") ?? [];
  const order = values["order.number"] ?? values.order;
  return [
    order && `order ${order}`,
    values["item.amount"],
    values["shipment.carrier"] && `via ${values["shipment.carrier"]}`,
    ...choiceSlots.map(({ name }) => `${name}=${choices[name]}`),
  ]
    .filter(Boolean)
    .join(" · ");
}

function formatRow({ ticketId, category, decision, result }: Decided): string {
  const columns = (outcome: string, what: string, who: string, detail: string) =>
    `${ticketId.padEnd(8)} ${outcome.padEnd(8)} ${what.padEnd(21)} ${who.padEnd(36)} ${clip(detail, 66)}`;
  if (decision.outcome === "send") {
    const { message, values, choices } = decision;
    const delivered = result.delivery?.status === "delivered" ? "" : ` [${result.delivery?.status}]`;
    // Which language the seller's records asked for, and which text was sent ("de-AT→de").
    const locale =
      decision.locale === undefined
        ? ""
        : ` · ${decision.locale.requested ?? "-"}${decision.locale.requested === decision.locale.used ? "" : `→${decision.locale.used}`}`;
    return columns(
      result.duplicate ? "dup" : "send",
      decision.template,
      `→ ${message.to}`,
      keyDetail(decision.template, values, choices) + locale + delivered,
    );
  }
  const { template = "", draft } = decision;
  if (decision.reason === "approval_required" && draft !== undefined) {
    // Not lost, not sent: the rendered draft waits for a person, who can only approve it as it is.
    const detail = `${template} · ${keyDetail(template, decision.values ?? {}, decision.choices ?? {})}`;
    return columns("escalate", "approval_required", `→ ${draft.to}`, detail);
  }
  const detail =
    decision.reason === "model_escalated"
      ? `${decision.code}: ${decision.note ?? "(no note)"}`
      : decision.detail;
  return columns("escalate", decision.reason, `[${category}]`, detail);
}

/** Counts as the replay goes, so the summary needs no second pass over the file. */
class Tally {
  decided = 0;
  sent = 0;
  readonly reasons = new Map<EscalationReason, number>();
  readonly malformed: Malformed[] = [];
  hostile = 0;
  hostileEscalated = 0;
  approvals = 0;
  readonly hostileSent: string[] = [];
  // Tickets with a plain category are ordinary requests the model answered with a proposal.
  readonly benignEscalated = new Map<string, string[]>();

  /** Localised sends by the locale used and why (requested, fallback, unsupported, missing…). */
  readonly locales = new Map<string, number>();

  add({ ticketId, category, decision }: Decided): void {
    this.decided += 1;
    if (decision.outcome === "send" && decision.locale !== undefined) {
      const key = `${decision.locale.used} (${decision.locale.reason})`;
      this.locales.set(key, (this.locales.get(key) ?? 0) + 1);
    }
    const hostile = category.startsWith("hostile:");
    if (hostile) this.hostile += 1;
    if (decision.outcome === "send") {
      this.sent += 1;
      if (hostile) this.hostileSent.push(ticketId);
      return;
    }
    this.reasons.set(decision.reason, (this.reasons.get(decision.reason) ?? 0) + 1);
    if (hostile) this.hostileEscalated += 1;
    if (decision.reason === "approval_required" && !hostile) this.approvals += 1;
    const expected = ["approval_required", "model_escalated"].includes(decision.reason);
    if (!category.includes(":") && !expected) {
      this.benignEscalated.set(decision.reason, [
        ...(this.benignEscalated.get(decision.reason) ?? []),
        ticketId,
      ]);
    }
  }

  print(): void {
    const escalated = this.decided - this.sent;
    console.log(`\n${"─".repeat(40)} summary ${"─".repeat(40)}`);
    console.log(
      `decided ${this.decided} · sent ${this.sent} · escalated ${escalated} · escalation rate ${percent(escalated, this.decided)} · malformed lines ${this.malformed.length}`,
    );
    const ordinary = this.decided - this.hostile;
    const ordinaryEscalated = escalated - this.hostileEscalated;
    console.log(
      `without the ${this.hostile} hostile tickets: ${ordinaryEscalated} of ${ordinary} escalated (${percent(ordinaryEscalated, ordinary)}), ${this.approvals} of them drafts awaiting approval`,
    );
    console.log("\nescalated by reason:");
    const widest = Math.max(...[...this.reasons.values()], 1);
    for (const [reason, count] of [...this.reasons].sort((a, b) => b[1] - a[1])) {
      const bar = "█".repeat(Math.max(1, Math.round((30 * count) / widest)));
      console.log(`  ${reason.padEnd(20)} ${String(count).padStart(4)}  ${bar}`);
    }
    const hostile =
      this.hostileSent.length === 0
        ? `all ${this.hostile} escalated`
        : `${this.hostileSent.length} SENT: ${this.hostileSent.join(", ")}`;
    console.log(`\nhostile tickets: ${hostile}`);
    for (const [reason, ids] of this.benignEscalated) {
      console.log(`ordinary proposals escalated as ${reason}: ${ids.length} (${clip(ids.join(", "), 70)})`);
    }
    if (this.malformed.length > 0) {
      console.log(`malformed lines skipped: ${this.malformed.map(({ line }) => line).join(", ")}`);
    }
  }
}

async function main(): Promise<void> {
  const path = process.argv[2] ?? fileURLToPath(new URL("./data/tickets.jsonl", import.meta.url));
  // A fresh database each run, so the demo's numbers are the file's, not the last run's.
  for (const file of [database, `${database}-wal`, `${database}-shm`, sentLog]) rmSync(file, { force: true });
  // The first message delivered, shown after the table: printed when delivered, it would land between rows.
  let firstMessage: string | undefined;
  // The first message delivered in each language, as it went out: sellers read their own language.
  const firstByLocale = new Map<string, string>();
  const current: { records: unknown } = { records: undefined };
  // When the recorded tickets arrived: the volume a person would face is theirs, not this replay's.
  const span = { first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY };
  const outbox = createOutbox({
    catalog: sellerCatalog,
    load: () => current.records,
    store: sqliteStore(database),
    // First contact: destinations are recorded as HMACs under this key. A real deployment reads a
    // secret of at least 32 bytes from its vault; the demo's is fixed so its numbers repeat.
    contactKey: "demo contact key, not a secret: use one from your vault",
    transports: {
      // Every delivered message goes to the log exactly as the transport renders it; the first is shown too.
      email: consoleTransport({
        write: (text) => {
          appendFileSync(sentLog, text);
          const locale = /^locale:\s+(\S+)$/m.exec(text)?.[1];
          if (locale !== undefined && !firstByLocale.has(locale)) firstByLocale.set(locale, text);
          firstMessage ??= text;
        },
      }),
    },
  });
  const tally = new Tally();
  // The table is collected and printed whole: nothing else the run prints (a delivered message, a
  // library's warning) can land between its rows. One short line a ticket is what it holds.
  const table = [
    `${"ticket".padEnd(8)} ${"outcome".padEnd(8)} ${"template / reason".padEnd(21)} ${"recipient / category".padEnd(36)} detail`,
  ];
  try {
    for await (const result of handleHistory(path, outbox, current, span)) {
      if ("problem" in result) {
        tally.malformed.push(result);
        table.push(`line ${result.line}: skipped, ${result.problem}`);
        continue;
      }
      tally.add(result);
      table.push(formatRow(result));
    }
    console.log(table.join("\n"));
    if (firstMessage !== undefined)
      process.stdout.write(`\nThe first message delivered, exactly as it went out:\n\n${firstMessage}`);
    tally.print();
    printLocales(tally, firstByLocale);
    await printQueue(outbox);
    // The same figures, measured as a running service measures them: from its own audit log.
    console.log(`\n${"─".repeat(37)} from the audit log ${"─".repeat(37)}`);
    const days = span.first <= span.last ? observedDays(span.first, span.last) : 1;
    const report = await reportFromAudit(outbox.audit.query(), { ticketsPerDay: tally.decided / days });
    console.log(formatSummary(report).trimEnd());
  } finally {
    await outbox.close();
  }
  console.log(
    `\noutbox database: ${database} (try: npm run cli -- queue list --db ${database}); delivered messages: ${sentLog}`,
  );
  console.log(
    "every message the catalog can send, ticket by ticket: npm run cli -- preview --catalog templates/seller.ts --history examples/data/tickets.jsonl",
  );
}

/** Localised messages by language, then the first German and Spanish message as they went out. */
function printLocales(tally: Tally, firstByLocale: ReadonlyMap<string, string>): void {
  console.log(`\n${"─".repeat(39)} languages ${"─".repeat(39)}`);
  const counts = [...tally.locales].sort((a, b) => b[1] - a[1]);
  console.log(`localised messages sent: ${counts.map(([key, count]) => `${key} ${count}`).join(" · ")}`);
  for (const [locale, name] of [
    ["de", "German"],
    ["es", "Spanish"],
  ] as const) {
    const text = firstByLocale.get(locale);
    if (text !== undefined) process.stdout.write(`\nThe first ${name} message delivered:\n\n${text}`);
  }
}

/** The open human queue, as a person starting a shift would see it. */
async function printQueue(outbox: Outbox): Promise<void> {
  const counts = new Map<string, number>();
  let total = 0;
  let cursor: string | undefined;
  const first: string[] = [];
  do {
    const page = await outbox.queue.list({ status: "open", limit: 100, ...(cursor ? { cursor } : {}) });
    for (const item of page.items) {
      total += 1;
      counts.set(item.reason, (counts.get(item.reason) ?? 0) + 1);
      if (first.length < 12) {
        first.push(
          `  #${item.id.padEnd(4)} ${item.reason.padEnd(20)} ${item.ticketId.padEnd(8)} ${clip(item.detail, 80)}`,
        );
      }
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  console.log(`\n${"─".repeat(38)} open human queue ${"─".repeat(38)}`);
  console.log(
    `${total} open item(s): ${[...counts].map(([reason, count]) => `${reason} ${count}`).join(", ")}`,
  );
  console.log(first.join("\n"));
  if (total > first.length) console.log(`  … and ${total - first.length} more`);
}

try {
  await main();
} catch (error) {
  // Only the file itself can fail here (missing, unreadable): every line in it is handled above.
  console.error(`cannot replay: ${(error as Error).message}`);
  process.exitCode = 1;
}
