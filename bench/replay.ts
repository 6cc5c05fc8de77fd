/**
 * `formletter replay` at scale: a 1,000,000-line history (written to a temporary file, streamed) replayed
 * through `replayHistory`, the function the CLI runs. The replay runs in a child process of its own, so
 * its peak resident memory is its own and not the generator's or another benchmark's. Goal on a 2-core
 * machine: ≤ 15 s and ≤ 250 MB — memory must not grow with the number of lines.
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { replayHistory } from "formletter/metrics";
import { catalog, ticket } from "./fixtures.js";
import { figure, report } from "./measure.js";

const lines = 1_000_000;
const childFlag = "--replay-child";

interface ChildResult {
  readonly seconds: number;
  readonly maxRssKb: number;
  readonly decided: number;
  readonly escalated: number;
  readonly malformed: number;
}

/** The child: replays the file it is given and prints its figures as one JSON line. */
async function child(path: string): Promise<void> {
  const started = performance.now();
  const result = await replayHistory(catalog, path);
  const seconds = (performance.now() - started) / 1000;
  const figures: ChildResult = {
    seconds,
    maxRssKb: process.resourceUsage().maxRSS,
    decided: result.overall.decided,
    escalated: result.overall.escalated,
    malformed: result.malformed.count,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

/** One history line: mostly sends, and every kind of escalation a real history holds, and bad lines. */
function historyLine(n: number, pool: readonly ReturnType<typeof ticket>[]): string {
  const base = pool[n % pool.length] as ReturnType<typeof ticket>;
  const ticketId = `H-${n}`;
  const at = new Date(Date.UTC(2026, 2, 1) + Math.floor((n / lines) * 30 * 86_400_000)).toISOString();
  const tags = { category: ["tracking", "delay", "damage", "refund", "missing", "return", "other"][n % 7] };
  const roll = n % 100;
  if (roll === 99) return "{not json";
  const output =
    roll < 80
      ? base.output
      : roll < 88
        ? { escalate: "needs_human", note: "the buyer asks for a call" }
        : roll < 93
          ? { template: "tracking_reqest", slots: {} }
          : roll < 97
            ? { template: "tracking_request", slots: { order: "o-0000" } }
            : "I will write to the seller myself.";
  // Line 98 of each hundred carries another ticket's records: records_invalid, as in the outbox.
  const records = { ...base.records, ticketId: roll === 98 ? "H-other" : ticketId };
  return JSON.stringify({ ticketId, records, output, tags, at });
}

async function parent(): Promise<void> {
  process.stdout.write("\nreplayHistory() — a 1,000,000-line history, streamed, through decide()\n");
  const directory = mkdtempSync(join(tmpdir(), "formletter-bench-replay-"));
  const path = join(directory, "history.jsonl");
  try {
    // A pool of tickets, handles hashed once each; a line reuses one under a new ticket id, which keeps
    // its handles valid (a handle depends on the record, not on the ticket).
    const pool = Array.from({ length: 1_000 }, (_, n) => ticket(n));
    const fd = openSync(path, "w");
    for (let start = 0; start < lines; start += 10_000) {
      const chunk: string[] = [];
      for (let n = start; n < Math.min(lines, start + 10_000); n++) chunk.push(historyLine(n, pool));
      writeSync(fd, `${chunk.join("\n")}\n`);
    }
    closeSync(fd);

    const output = execFileSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), childFlag, path],
      {
        encoding: "utf8",
        maxBuffer: 1 << 20,
      },
    );
    const result = JSON.parse(output.trim().split("\n").at(-1) ?? "{}") as ChildResult;
    if (result.decided + result.malformed !== lines) {
      throw new Error("a line was neither decided nor counted as malformed");
    }
    const peakMb = result.maxRssKb / 1024;
    report("history", `${figure(lines)} lines, ${figure(statSync(path).size / 1_048_576)} MB`);
    report("replay", `${result.seconds.toFixed(1)} s · ${figure(lines / result.seconds)} lines/s`);
    report(
      "counted",
      `${figure(result.decided)} decided · ${figure(result.escalated)} escalated · ${figure(result.malformed)} malformed`,
    );
    report("peak RSS of the replay process", `${figure(peakMb)} MB`);
    report("goal ≤ 15 s and ≤ 250 MB", result.seconds <= 15 && peakMb <= 250 ? "met" : "NOT met");
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (process.argv[2] === childFlag && process.argv[3] !== undefined) await child(process.argv[3]);
else await parent();
