/**
 * The 16 systems of Loghub-2k (logpai/loghub: 2,000 lines each, with the true template of every line),
 * each with Drain's published settings and accuracy (logpai/logparser: logparser/Drain/benchmark.py,
 * docs/benchmark.rst), and a reader of their labelled files. The files are offered for research use, so
 * they are not part of this repository: the benchmark reads them from a folder named on its command line.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CsvError, parseCsv } from "./csv.js";

/** One system: the masks, threshold and depth Drain was published with on it, and its published accuracy. */
export interface LoghubSystem {
  readonly name: string;
  readonly masks: readonly RegExp[];
  readonly similarity: number;
  readonly depth: number;
  /** Drain's grouping accuracy on this system in logparser's docs/benchmark.rst. */
  readonly published: number;
  /** Other folder names the system has had (logparser before 2023 spelled Android "Andriod"). */
  readonly aliases?: readonly string[];
}

// The expressions as published, written for JavaScript: `\w` and `\d` are ASCII here, as the logs are.
const ipv4 = /(\d+\.){3}\d+/;
const dottedName = /([\w-]+\.){2,}[\w-]+/;

/** The systems, in the order of the published table. */
export const loghubSystems: readonly LoghubSystem[] = [
  { name: "HDFS", masks: [/blk_-?\d+/, /(\d+\.){3}\d+(:\d+)?/], similarity: 0.5, depth: 4, published: 0.998 },
  { name: "Hadoop", masks: [ipv4], similarity: 0.5, depth: 4, published: 0.948 },
  { name: "Spark", masks: [ipv4, /\b[KGTM]?B\b/, dottedName], similarity: 0.5, depth: 4, published: 0.92 },
  { name: "Zookeeper", masks: [/(\/|)(\d+\.){3}\d+(:\d+)?/], similarity: 0.5, depth: 4, published: 0.967 },
  {
    name: "OpenStack",
    masks: [/((\d+\.){3}\d+,?)+/, /\/.+?\s/, /\d+/],
    similarity: 0.5,
    depth: 5,
    published: 0.733,
  },
  { name: "BGL", masks: [/core\.\d+/], similarity: 0.5, depth: 4, published: 0.963 },
  { name: "HPC", masks: [/=\d+/], similarity: 0.5, depth: 4, published: 0.887 },
  { name: "Thunderbird", masks: [ipv4], similarity: 0.5, depth: 4, published: 0.955 },
  { name: "Windows", masks: [/0x.*?\s/], similarity: 0.7, depth: 5, published: 0.997 },
  { name: "Linux", masks: [ipv4, /\d{2}:\d{2}:\d{2}/], similarity: 0.39, depth: 6, published: 0.69 },
  { name: "Mac", masks: [dottedName], similarity: 0.7, depth: 6, published: 0.787 },
  {
    name: "Android",
    masks: [/(\/[\w-]+)+/, dottedName, /\b(-?\+?\d+)\b|\b0[Xx][a-fA-F\d]+\b|\b[a-fA-F\d]{4,}\b/],
    similarity: 0.2,
    depth: 6,
    published: 0.911,
    aliases: ["Andriod"],
  },
  { name: "HealthApp", masks: [], similarity: 0.2, depth: 4, published: 0.78 },
  { name: "Apache", masks: [ipv4], similarity: 0.5, depth: 4, published: 1 },
  { name: "OpenSSH", masks: [ipv4, dottedName], similarity: 0.6, depth: 5, published: 0.788 },
  {
    name: "Proxifier",
    masks: [/<\d+\ssec/, /([\w-]+\.)+[\w-]+(:\d+)?/, /\d{2}:\d{2}(:\d{2})*/, /[KGTM]B/],
    similarity: 0.6,
    depth: 3,
    published: 0.527,
  },
];

/** How to get the files, said wherever they are missing. */
export const loghubDataHelp = [
  "Loghub-2k is offered for research use and is not shipped; get the labelled files with:",
  "  git clone --depth 1 https://github.com/logpai/loghub.git /tmp/loghub-src",
  "  mkdir -p loghub && git -C /tmp/loghub-src archive HEAD | tar -x -C loghub --wildcards '*_2k.log_structured.csv'",
  "then name that folder: <folder>/<System>/<System>_2k.log_structured.csv, e.g. loghub/HDFS/HDFS_2k.log_structured.csv.",
].join("\n");

/** A folder or file of Loghub that is missing or unreadable; the message names the path and the fix. */
export class LoghubDataError extends Error {
  constructor(
    message: string,
    /** Whether the file is absent, rather than present and unreadable. */
    readonly missing = false,
  ) {
    super(message);
    this.name = "LoghubDataError";
  }
}

/** One labelled system: each line's content and true template id (undefined where the file gives none). */
export interface LabelledLines {
  readonly path: string;
  readonly contents: readonly string[];
  readonly truth: readonly (string | undefined)[];
}

/** Throws {@link LoghubDataError} unless `folder` is a readable folder. */
export function checkLoghubFolder(folder: string): void {
  if (!existsSync(folder)) throw new LoghubDataError(`${folder} does not exist.\n${loghubDataHelp}`);
  if (!statSync(folder).isDirectory())
    throw new LoghubDataError(`${folder} is not a folder.\n${loghubDataHelp}`);
}

/** Reads `<folder>/<System>/<System>_2k.log_structured.csv` (or under a former name of the system). */
export function readLoghubSystem(folder: string, system: LoghubSystem): LabelledLines {
  const names = [system.name, ...(system.aliases ?? [])];
  const paths = names.map((name) => join(folder, name, `${name}_2k.log_structured.csv`));
  const path = paths.find((candidate) => existsSync(candidate));
  if (path === undefined)
    throw new LoghubDataError(`${paths.join(" and ")}: no such file.\n${loghubDataHelp}`, true);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new LoghubDataError(`${path} cannot be read (${(error as Error).message}).\n${loghubDataHelp}`);
  }
  return labelledLines(path, text);
}

/** A line of a file as a message shows it: escaped, and cut short, as a file of another kind may have no line breaks. */
function shown(line: string): string {
  const limit = 120;
  return JSON.stringify(line.length > limit ? `${line.slice(0, limit)}…` : line);
}

/** The `Content` and `EventId` columns of a structured CSV text, found by their header names. */
export function labelledLines(path: string, text: string): LabelledLines {
  let rows: string[][];
  try {
    rows = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError)
      throw new LoghubDataError(`${path}: ${error.message}; get the file again.`);
    throw error;
  }
  const header = rows[0] ?? [];
  const content = header.indexOf("Content");
  const eventId = header.indexOf("EventId");
  if (content === -1 || eventId === -1)
    throw new LoghubDataError(
      `${path}: the first line must name the columns Content and EventId, found ${shown(header.join(","))}.\n${loghubDataHelp}`,
    );
  const contents: string[] = [];
  const truth: (string | undefined)[] = [];
  for (let index = 1; index < rows.length; index++) {
    const row = rows[index] as string[];
    // Blank lines hold no record, as CSV readers commonly skip them.
    if (row.length === 1 && row[0] === "") continue;
    if (row.length !== header.length)
      throw new LoghubDataError(
        `${path}: record ${index} has ${row.length} fields where the header names ${header.length}; get the file again.`,
      );
    contents.push(row[content] as string);
    // A line without a true template is left out of the score, as the field's evaluator does.
    const id = row[eventId] as string;
    truth.push(id === "" ? undefined : id);
  }
  return { path, contents, truth };
}
