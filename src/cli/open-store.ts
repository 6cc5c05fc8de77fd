import { existsSync } from "node:fs";
import type { Store } from "../store/index.js";
import { sqliteStore } from "../store/sqlite/index.js";
import { CliError } from "./output.js";

/**
 * Opens the outbox database of `--db`, refusing a path that does not exist: a typo would create an empty
 * file, and report zero escalations or an empty queue.
 */
export function openStore(file: string): Store {
  if (!existsSync(file))
    throw new CliError(`no outbox database at ${file}; pass the file the outbox writes with --db`);
  return sqliteStore(file);
}
