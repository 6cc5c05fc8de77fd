/**
 * The README's "A new project" box, run line by line in an empty folder with the packed package standing
 * in for the registry's `formletter`: an ES module package, the quick start saved as `main.ts` and
 * carried on with top-level await into an outbox on the SQLite store, which needs better-sqlite3's
 * install script to have run. That script unpacks a prebuilt binary made from this checkout's build
 * (see sqlite-prebuilt.ts) rather than compiling one, but only once npm has been told to run it.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quickStart, quickStartThroughOutbox, shellCommands } from "./readme.js";
import { packFormletter, run, scratchProject } from "./scratch-project.js";
import { localPrebuildEnvironment } from "./sqlite-prebuilt.js";

const heading = "### A new project";
let folder: string;
let project: string;
let tarball: string;
let prebuilt: Record<string, string>;

beforeAll(async () => {
  folder = scratchProject("formletter-new-project-");
  tarball = await packFormletter(folder);
  prebuilt = await localPrebuildEnvironment();
  project = join(folder, "app");
  mkdirSync(project);
}, 900_000);
afterAll(() => {
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

/** A README line with the registry's `formletter` replaced by the packed tarball. */
const fromTarball = (command: string): string =>
  /^npm (install|i|add)\b/.test(command) ? command.replace(/(?<=\s)formletter(?=\s|$)/, tarball) : command;

describe("the README's new-project box, run as written", () => {
  it("installs, approves better-sqlite3's build and runs main.ts with top-level await on the SQLite store", async () => {
    const commands = shellCommands(heading);
    expect(commands).toContain("npx tsx main.ts");
    expect(commands.some((command) => fromTarball(command) !== command)).toBe(true);
    writeFileSync(
      join(project, "main.ts"),
      `${quickStart()}\nimport { sqliteStore } from "formletter/sqlite";\n${quickStartThroughOutbox('sqliteStore("outbox.db")')}`,
    );
    let printed = "";
    for (const command of commands) {
      const { stdout } = await run("sh", ["-c", fromTarball(command)], {
        cwd: project,
        env: {
          ...process.env,
          // This checkout's binary for better-sqlite3's install script to unpack, when it has one.
          ...prebuilt,
          // Node's headers for better-sqlite3's build where no prebuilt binary is found, as the README
          // says; the others only quieten and speed up npm and that build (unoptimised, on every core:
          // the test needs it to run, not to be fast).
          ...(existsSync("/usr/include/node/node.h") ? { npm_config_nodedir: "/usr" } : {}),
          CFLAGS: "-O0",
          CXXFLAGS: "-O0",
          JOBS: "max",
          npm_config_prefer_offline: "true",
          npm_config_audit: "false",
          npm_config_fund: "false",
        },
      }).catch((error: { stderr?: string }) => {
        throw new Error(`"${command}" failed in the README's "${heading}" box: ${error.stderr ?? error}`);
      });
      printed = stdout;
    }
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
      type?: string;
      allowScripts?: Record<string, boolean>;
    };
    expect(manifest.type).toBe("module");
    // Approved by name, or pinned to the installed version when the lockfile knows where it came from.
    const approved = Object.entries(manifest.allowScripts ?? {}).filter(([name]) =>
      /^better-sqlite3(@|$)/.test(name),
    );
    expect(approved.map(([, allowed]) => allowed)).toEqual([true]);
    expect(JSON.parse(printed.trim().split("\n").at(-1) ?? "")).toEqual({
      handled: "send",
      sent: ["shop@example.com"],
    });
    expect(existsSync(join(project, "outbox.db"))).toBe(true);
  }, 900_000);
});
