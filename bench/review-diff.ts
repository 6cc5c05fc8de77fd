/**
 * `formletter diff` over a history: the seller catalog against itself (two full replays and a pairing of
 * every proposal, whatever changed) on the bundled tickets and on a 100,000-line history made from them.
 * Runs the built command line in a child process, as CI runs it. Goal on a 2-core machine: the bundled
 * tickets in under 2 s, 100,000 lines in under 60 s (both including the start-up and catalog loading).
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { report } from "./measure.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const entry = process.argv[2] ?? join(root, "dist", "cli", "index.js");
const bundled = join(root, "examples", "data", "tickets.jsonl");
const catalog = join(root, "templates", "seller.ts");

/** Seconds one `diff --json` takes, and the proposals it paired. */
function diff(history: string): { seconds: number; pairs: number } {
  const started = performance.now();
  const output = execFileSync(
    process.execPath,
    [
      ...(entry.endsWith(".ts") ? ["--import", "tsx"] : []),
      entry,
      "diff",
      "--base",
      catalog,
      "--head",
      catalog,
      "--history",
      history,
      "--json",
    ],
    { cwd: root, encoding: "utf8", maxBuffer: 64 * 1_048_576 },
  );
  return { seconds: (performance.now() - started) / 1000, pairs: JSON.parse(output).messages.pairs };
}

const lines = readFileSync(bundled, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "");
const directory = mkdtempSync(join(tmpdir(), "formletter-bench-diff-"));
try {
  const large = join(directory, "history.jsonl");
  const file = openSync(large, "w");
  for (let index = 0; index < 100_000; index++) {
    const line = JSON.parse(lines[index % lines.length] as string);
    const ticketId = `${line.ticketId}-${Math.floor(index / lines.length)}`;
    writeSync(file, `${JSON.stringify({ ...line, ticketId, records: { ...line.records, ticketId } })}\n`);
  }
  closeSync(file);
  process.stdout.write("\nformletter diff over a history (seller catalog against itself)\n");
  const small = diff(bundled);
  report(`bundled tickets (${small.pairs} proposals)`, `${small.seconds.toFixed(2)} s`);
  const big = diff(large);
  report(`100,000-line history (${big.pairs} proposals)`, `${big.seconds.toFixed(1)} s`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
