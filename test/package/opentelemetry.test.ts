/**
 * OpenTelemetry through the packed package, installed from the registry beside a tracing SDK as a user
 * would. The API keeps one global provider per copy, and a copy newer than the SDK's accepts no
 * provider registered through an older one: unless formletter shares the application's copy, its spans
 * reach no exporter, silently. So the API is a peer with a wide range, and each SDK major must see
 * formletter's spans.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { quickStartJavaScript, quickStartThroughOutbox } from "./readme.js";
import { packFormletter, requiredPeers, run, scratchProject } from "./scratch-project.js";

// The application registers its provider, runs the README's quick start (a decide), then hands the
// same proposal to an outbox and prints the names of the spans its exporter received.
const tracingScript = `import { trace } from "@opentelemetry/api";
import * as sdk from "@opentelemetry/sdk-trace-base";

const exporter = new sdk.InMemorySpanExporter();
const processor = new sdk.SimpleSpanProcessor(exporter);
// SDK 1.x adds span processors after construction; 2.x takes them in the constructor only.
const provider = "addSpanProcessor" in sdk.BasicTracerProvider.prototype ? new sdk.BasicTracerProvider() : new sdk.BasicTracerProvider({ spanProcessors: [processor] });
if ("addSpanProcessor" in provider) provider.addSpanProcessor(processor);
trace.setGlobalTracerProvider(provider);

${quickStartJavaScript()}
${quickStartThroughOutbox("formletterRuntime.memoryStore()")}
console.log(JSON.stringify(exporter.getFinishedSpans().map((span) => span.name).sort()));
`;

const sdkPackage = "@opentelemetry/sdk-trace-base";
/** The newest SDK major published now, which may be newer than the one this file was written against. */
const newestMajor = execFileSync("npm", ["view", `${sdkPackage}@latest`, "version"], { encoding: "utf8" })
  .trim()
  .split(".")[0];

interface Case {
  readonly name: string;
  /** What the user names beside formletter and zod. */
  readonly install: readonly string[];
  /**
   * Installed over a copy of this case's project rather than into an empty one: for exact versions of
   * the SDK and the API, whose dependencies are exact too, npm resolves the same tree either way (every
   * other package is the one the first install chose), without unpacking formletter's dependencies again.
   * The first case's project is left as it was.
   */
  readonly over?: Case;
}

// What a user gets today (2.x, whose peer range stops the API below the newest), the newest major when
// it is another, and the oldest API formletter's range admits with the SDK of its day.
const today: Case = { name: "SDK 2.x, as installed today", install: [`${sdkPackage}@^2`] };
const cases: readonly Case[] = [
  today,
  ...(newestMajor === "2"
    ? []
    : [{ name: `SDK ${newestMajor}.x, the newest`, install: [`${sdkPackage}@^${newestMajor}`] }]),
  {
    name: "SDK 1.0 with API 1.0.0, the oldest admitted",
    install: [`${sdkPackage}@1.0.1`, "@opentelemetry/api@1.0.0"],
    over: today,
  },
];

const projects: string[] = [];
afterAll(() => {
  for (const project of projects) rmSync(project, { recursive: true, force: true });
});

const installs = new Map<string, Promise<string>>();

/** A case's project, installed once: the case's test and a case installed over it share the promise. */
function installed(of: Case): Promise<string> {
  const known = installs.get(of.name);
  if (known !== undefined) return known;
  const installing = install(of);
  installs.set(of.name, installing);
  return installing;
}

async function install({ install, over }: Case): Promise<string> {
  const project = scratchProject("formletter-otel-");
  projects.push(project);
  const named = [...install];
  if (over === undefined) {
    const tarball = basename(await packFormletter(project));
    named.unshift(`./${tarball}`, `zod@${requiredPeers().zod}`);
  } else {
    const from = await installed(over);
    // node_modules as hard links, made in a moment where a copy takes as long as the install: npm
    // replaces a package's folder and never writes into one, so the other project's files stay as
    // they are. The files npm rewrites in place are copied: the manifest, the lockfiles, and the packed
    // tarball beside them.
    await run("cp", ["-al", join(from, "node_modules"), project]);
    for (const file of readdirSync(from, { withFileTypes: true }))
      if (file.isFile() && file.name !== "main.mjs")
        copyFileSync(join(from, file.name), join(project, file.name));
    const hidden = join("node_modules", ".package-lock.json");
    rmSync(join(project, hidden), { force: true });
    if (existsSync(join(from, hidden))) copyFileSync(join(from, hidden), join(project, hidden));
  }
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...named], {
    cwd: project,
  });
  return project;
}

describe("formletter's spans reach the tracer provider the application registers", () => {
  // Each case has a project of its own: npm waits on the disk and the registry much of the time.
  it.concurrent.for(cases)("$name", { timeout: 900_000 }, async (tested, { expect }) => {
    const project = await installed(tested);
    writeFileSync(join(project, "main.mjs"), tracingScript);
    const { stdout } = await run(process.execPath, ["main.mjs"], { cwd: project });
    const [outcome, spans] = stdout.trim().split("\n").slice(-2);
    expect(JSON.parse(outcome ?? "")).toEqual({ handled: "send", sent: ["shop@example.com"] });
    expect(JSON.parse(spans ?? "")).toEqual([
      "formletter.decide",
      "formletter.decide",
      "formletter.delivery",
      "formletter.handle",
      "formletter.store.transaction",
      "formletter.store.transaction",
    ]);
    // One copy of the API: the one the application imports is the one formletter imports.
    const fromProject = createRequire(join(project, "main.mjs")).resolve("@opentelemetry/api");
    const fromFormletter = createRequire(join(project, "node_modules/formletter/package.json")).resolve(
      "@opentelemetry/api",
    );
    expect(fromFormletter).toBe(fromProject);
  });
});
