/**
 * OpenTelemetry through the packed package, installed from the registry beside a tracing SDK as a user
 * would. The API keeps one global provider per copy, and a copy newer than the SDK's accepts no
 * provider registered through an older one: unless formletter shares the application's copy, its spans
 * reach no exporter, silently. So the API is a peer with a wide range, and each SDK major must see
 * formletter's spans.
 */
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
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

// What a user gets today (2.x, whose peer range stops the API below the newest), the newest major when
// it is another, and the oldest API formletter's range admits with the SDK of its day.
const cases = [
  { name: "SDK 2.x, as installed today", install: [`${sdkPackage}@^2`] },
  ...(newestMajor === "2"
    ? []
    : [{ name: `SDK ${newestMajor}.x, the newest`, install: [`${sdkPackage}@^${newestMajor}`] }]),
  {
    name: "SDK 1.0 with API 1.0.0, the oldest admitted",
    install: [`${sdkPackage}@1.0.1`, "@opentelemetry/api@1.0.0"],
  },
];

const projects: string[] = [];
afterAll(() => {
  for (const project of projects) rmSync(project, { recursive: true, force: true });
});

describe("formletter's spans reach the tracer provider the application registers", () => {
  // Each case installs a project of its own: npm waits on the disk and the registry much of the time.
  it.concurrent.for(cases)("$name", { timeout: 900_000 }, async ({ install }, { expect }) => {
    const project = scratchProject("formletter-otel-");
    projects.push(project);
    const tarball = basename(await packFormletter(project));
    const zod = `zod@${requiredPeers().zod}`;
    await run(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `./${tarball}`,
        zod,
        ...install,
      ],
      { cwd: project },
    );
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
