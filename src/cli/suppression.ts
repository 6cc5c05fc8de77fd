import type { Command } from "commander";
import { printableLine as line } from "../core/message/sanitize.js";
import { liftSuppression } from "../outbox/index.js";
import type { Store } from "../store/index.js";
import { openStore } from "./open-store.js";
import { age, CliError, type CliIo, table } from "./output.js";
import { actorOption } from "./queue-refusal.js";

async function withStore<T>(file: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(file);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** `formletter suppression list|lift --db FILE`: destinations a hard bounce or a complaint suppressed. */
export function registerSuppressionCommands(program: Command, io: CliIo): void {
  const suppression = program
    .command("suppression")
    .description(
      "destinations suppressed by a hard bounce or a complaint, as keyed hashes (never addresses)",
    );
  const json = (value: unknown) => io.stdout(`${JSON.stringify(value, null, 2)}\n`);

  suppression
    .command("list")
    .description("list suppressed destinations, by hash")
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .option("--limit <n>", "how many", "50")
    .option("--cursor <cursor>", "the next page, from a previous list")
    .option("--json", "machine-readable output")
    .action(async (options) => {
      const page = await withStore(options.db, (store) =>
        store.listSuppressions({
          limit: Number(options.limit),
          ...(options.cursor ? { cursor: String(options.cursor) } : {}),
        }),
      );
      if (options.json) return json(page);
      const now = Date.now();
      io.stdout(
        table(
          ["destination", "channel", "cause", "provider", "age"],
          page.items.map((item) => [
            line(item.destination),
            line(item.channel),
            item.cause,
            line(item.provider),
            age(item.at, now),
          ]),
          64,
        ),
      );
      io.stdout(
        `${page.items.length} suppressed${page.nextCursor ? `; more with --cursor ${line(page.nextCursor)}` : ""}\n`,
      );
    });

  suppression
    .command("lift <destination>")
    .description(
      "lift a suppression (the full hash list shows), so the next decision to it sends again; audited",
    )
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .requiredOption("--by <who>", "who lifts it")
    .option("--note <text>", "why, for the audit log")
    .option("--json", "machine-readable output")
    .action(async (destination: string, options) => {
      const by = actorOption(options.by);
      if (!/^[0-9a-f]{64}$/.test(destination))
        throw new CliError(
          "lift: pass the destination as the 64 hexadecimal characters `suppression list` shows",
        );
      const result = await withStore(options.db, (store) =>
        liftSuppression(
          (work) => store.transaction(work),
          destination,
          { by, ...(typeof options.note === "string" ? { note: options.note } : {}) },
          Date.now(),
        ),
      );
      if (options.json) return json(result);
      if (!result.lifted) throw new CliError("lift: that destination is not suppressed; list them again");
      io.stdout(
        `lifted the suppression of ${destination.slice(0, 12)} (${result.suppression?.cause}) for ${line(by)}\n`,
      );
    });
}
