import { printable } from "../core/message/sanitize.js";

/** Where the CLI writes; tests pass their own. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Where progress bars draw (stderr); a bar is drawn only when this is a terminal. */
  readonly progress?: NodeJS.WritableStream & { readonly isTTY?: boolean; readonly columns?: number };
}

/**
 * The exit status of a command whose reader closed its output before it was all written: 128 + SIGPIPE
 * (13), the status a shell reports for `seq 1e9 | head -1`, so scripts and `set -o pipefail` treat
 * formletter as they treat any Unix tool whose reader went away.
 */
export const closedOutputStatus = 141;

/** A process's output streams: what {@link processIo} writes to. */
export interface OutputStreams {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
}

/** {@link CliIo} on the process's own streams, and whether a reader closed one of them. */
export interface ProcessIo {
  readonly io: CliIo;
  /** True once a write met a closed reader (EPIPE) on stdout or stderr. */
  readonly closed: () => boolean;
}

/**
 * The one place the command line meets the process's stdout and stderr. When a reader goes away
 * (`formletter queue list | head -1`), a write fails with EPIPE, which Node reports as an `'error'`
 * event on the stream, and a stream with no listener for it ends the process with a stack trace. The
 * listener here is on the streams themselves, so it covers every writer: the commands, commander's
 * help, pino's log lines in `serve`, a progress bar, a catalog module's own console calls and preview
 * workers' output. A closed stream is never written again; the command goes on to its end (an
 * approval already under way is finished, a running server keeps serving with its log dropped) and
 * the process exits with {@link closedOutputStatus}. Any other error on a stream is thrown as Node
 * would throw it: a full disk must not look like a reader that left.
 */
export function processIo(streams: OutputStreams = process): ProcessIo {
  const closed = new Set<NodeJS.WriteStream>();
  // A failed write sets `errored` as it returns and emits 'error' a tick later, when the command may
  // already have returned: both are watched, and what they saw is kept (Node clears `errored` later).
  const check = (stream: NodeJS.WriteStream) => {
    if ((stream.errored as NodeJS.ErrnoException | null)?.code === "EPIPE") closed.add(stream);
    return closed.has(stream);
  };
  const writer = (stream: NodeJS.WriteStream) => {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      closed.add(stream);
    });
    return (text: string) => {
      if (!check(stream) && !stream.destroyed) stream.write(text);
    };
  };
  return {
    io: { stdout: writer(streams.stdout), stderr: writer(streams.stderr), progress: streams.stderr },
    closed: () => check(streams.stdout) || check(streams.stderr),
  };
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
