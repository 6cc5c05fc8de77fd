import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkLoghubFolder,
  LoghubDataError,
  labelledLines,
  loghubSystems,
  readLoghubSystem,
} from "../../bench/mining/loghub.js";

const folder = mkdtempSync(join(tmpdir(), "loghub-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const system = (name: string) => {
  const found = loghubSystems.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no system ${name}`);
  return found;
};

/** Writes `<folder>/<name>/<name>_2k.log_structured.csv`. */
function writeSystem(name: string, text: string): void {
  mkdirSync(join(folder, name), { recursive: true });
  writeFileSync(join(folder, name, `${name}_2k.log_structured.csv`), text);
}

const run = promisify(execFile);
async function bench(...argv: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "bench/loghub.ts", ...argv], {
      env: { ...process.env, TSX_TSCONFIG_PATH: "bench/tsconfig.json" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("Loghub reader", () => {
  it("knows the 16 systems with their published settings", () => {
    expect(loghubSystems.map((entry) => entry.name).sort()).toEqual(
      [
        "Android",
        "Apache",
        "BGL",
        "HDFS",
        "HPC",
        "Hadoop",
        "HealthApp",
        "Linux",
        "Mac",
        "OpenSSH",
        "OpenStack",
        "Proxifier",
        "Spark",
        "Thunderbird",
        "Windows",
        "Zookeeper",
      ].sort(),
    );
    const mean = loghubSystems.reduce((sum, entry) => sum + entry.published, 0) / loghubSystems.length;
    expect(mean).toBeCloseTo(0.8657, 4);
  });

  it("reads Content and EventId by their header names, quoted fields included, and leaves unlabelled lines undefined and blank lines out", () => {
    const lines = labelledLines(
      "x.csv",
      'LineId,EventId,Level,Content\n1,E1,INFO,"a, ""quoted"" line"\n\n2,,WARN,plain\n',
    );
    expect(lines.contents).toEqual(['a, "quoted" line', "plain"]);
    expect(lines.truth).toEqual(["E1", undefined]);
  });

  it("names the file and the fix when columns are missing, a record is short or a quote is open", () => {
    expect(() => labelledLines("x.csv", "LineId,Content\n1,a\n")).toThrow(
      /x\.csv: the first line must name the columns Content and EventId/,
    );
    // A file of another kind may be one long line: the message shows the start of it, escaped.
    const binary = `\u0000${"\u0001x".repeat(10_000)}`;
    expect(() => labelledLines("x.csv", binary)).toThrow(/found "\\u0000(\\u0001x){59}\\u0001…"/);
    expect(() => labelledLines("x.csv", "Content,EventId\na,E1\nb\n")).toThrow(
      /x\.csv: record 2 has 1 fields/,
    );
    expect(() => labelledLines("x.csv", 'Content,EventId\n"a,E1\n')).toThrow(/x\.csv: .*never closed/);
  });

  it("finds a system under its former folder name", () => {
    writeSystem("Andriod", "Content,EventId\nhello,E1\n");
    expect(readLoghubSystem(folder, system("Android")).contents).toEqual(["hello"]);
  });

  it("names a folder that is a file, and a file that is a folder, with the fix", () => {
    const file = join(folder, "plain-file");
    writeFileSync(file, "");
    expect(() => checkLoghubFolder(file)).toThrow(`${file} is not a folder`);
    const odd = join(folder, "Linux", "Linux_2k.log_structured.csv");
    mkdirSync(odd, { recursive: true });
    expect(() => readLoghubSystem(folder, system("Linux"))).toThrow(`${odd} cannot be read`);
    expect(() => readLoghubSystem(folder, system("Linux"))).toThrow("git clone");
  });

  it("names the missing file and says how to get the data", () => {
    const read = () => readLoghubSystem(folder, system("Mac"));
    expect(read).toThrow(LoghubDataError);
    expect(read).toThrow(join(folder, "Mac", "Mac_2k.log_structured.csv"));
    expect(read).toThrow("git clone --depth 1 https://github.com/logpai/loghub.git");
  });
});

describe("bench/loghub.ts", () => {
  it("says how to get the data and exits 0 when no folder is named", async () => {
    const result = await bench();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("https://github.com/logpai/loghub.git");
  });

  it("names a folder that does not exist, without a stack trace, and exits 1", async () => {
    const missing = join(folder, "nowhere");
    const result = await bench(missing);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${missing} does not exist`);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it("measures the systems it finds, lists the ones it does not and exits 1", async () => {
    mkdirSync(join(folder, "Linux", "Linux_2k.log_structured.csv"), { recursive: true });
    writeSystem("HDFS", "Content,EventId\nblock blk_1 served,E1\nblock blk_2 served,E1\nshutting down,E2\n");
    const result = await bench(folder);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/HDFS\s+1\.000\s+0\.998\s+\+0\.002/);
    expect(result.stdout).toMatch(/Mac\s+\(missing\)/);
    expect(result.stdout).toMatch(/Linux\s+\(not read\)/);
    expect(result.stderr).toContain(join(folder, "Mac", "Mac_2k.log_structured.csv"));
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});
