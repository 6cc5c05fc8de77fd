import { printable } from "../core/message/sanitize.js";

/** Where the CLI writes; tests pass their own. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Where progress bars draw (stderr); a bar is drawn only when this is a terminal. */
  readonly progress?: NodeJS.WritableStream & { readonly isTTY?: boolean; readonly columns?: number };
}

/**
 * `io` with every write passed through {@link printable}: the one path by which the CLI reaches a
 * terminal. Whatever an agent, a record, a ticket, an operator or a history file put in a value, no
 * escape sequence, bidi override or other control character is written raw; JSON stays valid JSON.
 */
export function terminalSafe(io: CliIo): CliIo {
  return {
    stdout: (text) => io.stdout(printable(text)),
    stderr: (text) => io.stderr(printable(text)),
    ...(io.progress === undefined ? {} : { progress: io.progress }),
  };
}

/** Renders rows as an aligned text table with a header, cutting cells at `maxWidth` characters. */
export function table(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  maxWidth = 48,
): string {
  const cut = (cell: string) => {
    const flat = cell.replace(/\s+/g, " ");
    return flat.length > maxWidth ? `${flat.slice(0, maxWidth - 1)}…` : flat;
  };
  const cells = [headers.map(cut), ...rows.map((row) => row.map(cut))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? "").length)));
  return `${cells
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")}\n`;
}

/** "3m", "5h", "2d": how long ago `at` was. */
export function age(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}

/** An error the CLI reports as one line and exit code 1. */
export class CliError extends Error {}
