import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadCatalog } from "../../src/cli/load-catalog.js";
import { type PreviewServer, startPreviewServer } from "../../src/cli/preview-server.js";
import { builtPackage } from "../fixtures/built-package.js";
import { cli } from "./run.js";

const require = createRequire(import.meta.url);

/**
 * The installed package, as a team has it: in node_modules (not watched: it changes with an install, not
 * an edit) and plain CommonJS, so a JavaScript catalog imports it natively, and Node caches what it
 * loads as it does for a team. It is the package's CommonJS build, made from the sources.
 */
const installedPackage = (main: string) => `const formletter = require(${JSON.stringify(main)});
// Named one by one, so Node finds the names an ES module imports from this CommonJS one.
exports.createCatalog = formletter.createCatalog;
exports.defineRecords = formletter.defineRecords;
exports.defineTemplate = formletter.defineTemplate;
exports.z = require(${JSON.stringify(require.resolve("zod"))}).z;
`;

/** The catalog's code between its imports and its export: the subject is written in the module itself. */
const definitions = (subject: string) => `
const records = defineRecords({
  orders: z.object({ id: z.string(), number: z.string() }),
  customers: z.object({ id: z.string(), email: z.email() }),
});
const { slot } = records;
const reply = defineTemplate(records, {
  id: "order_reply", description: "Answer about an order", audience: "customer", effect: "informational", channel: "email",
  to: slot.ref("customers", { show: "email" }), subject: ${JSON.stringify(`${subject} {{order}}`)},
  body: greeting + " about order {{order}}.",
  slots: { order: slot.ref("orders", { show: "number" }) }, limits: { perTicket: 2, perDay: 100 },
});
`;

/** A way a team writes a catalog: its module, the local file it imports the greeting from, and both texts. */
interface Shape {
  readonly name: string;
  readonly catalog: string;
  readonly texts: string;
  /** The folder's package.json "type", which decides what a .js file is. */
  readonly type?: "module";
  readonly module: (subject: string) => string;
  readonly greeting: (greeting: string) => string;
}

const esm = (name: string, catalog: string, texts: string, specifier = `./${texts}`): Shape => ({
  name,
  catalog,
  texts,
  module: (subject) =>
    `import { createCatalog, defineRecords, defineTemplate, z } from "fl";\nimport { greeting } from ${JSON.stringify(specifier)};\n${definitions(subject)}export const catalog = createCatalog(records, [reply]);\n`,
  greeting: (greeting) => `export const greeting = ${JSON.stringify(greeting)};\n`,
});

const shapes: readonly Shape[] = [
  // TypeScript names its imports by their JavaScript name.
  esm("TypeScript (.ts)", "catalog.ts", "texts.ts", "./texts.js"),
  esm("TypeScript module (.mts)", "catalog.mts", "texts.mts", "./texts.mjs"),
  esm("ES module (.mjs)", "catalog.mjs", "texts.mjs"),
  { ...esm('ES module (.js, "type": "module")', "catalog.js", "texts.js"), type: "module" },
  {
    name: "CommonJS (.cjs)",
    catalog: "catalog.cjs",
    texts: "texts.cjs",
    module: (subject) =>
      `const { createCatalog, defineRecords, defineTemplate, z } = require("fl");\nconst { greeting } = require("./texts.cjs");\n${definitions(subject)}module.exports = { catalog: createCatalog(records, [reply]) };\n`,
    greeting: (greeting) => `exports.greeting = ${JSON.stringify(greeting)};\n`,
  },
  {
    name: "CommonJS (.js, no type)",
    catalog: "catalog.js",
    texts: "texts.js",
    module: (subject) =>
      `const { createCatalog, defineRecords, defineTemplate, z } = require("fl");\nconst { greeting } = require("./texts");\n${definitions(subject)}module.exports = { catalog: createCatalog(records, [reply]) };\n`,
    greeting: (greeting) => `module.exports = { greeting: ${JSON.stringify(greeting)} };\n`,
  },
  {
    name: "ES module importing JSON (.mjs + .json)",
    catalog: "catalog.mjs",
    texts: "texts.json",
    module: (subject) =>
      `import { createCatalog, defineRecords, defineTemplate, z } from "fl";\nimport texts from "./texts.json" with { type: "json" };\nconst { greeting } = texts;\n${definitions(subject)}export const catalog = createCatalog(records, [reply]);\n`,
    greeting: (greeting) => `${JSON.stringify({ greeting })}\n`,
  },
];

const ticket = {
  ticketId: "T-1",
  orders: [{ id: "o1", number: "4471-2290" }],
  customers: [{ id: "c1", email: "ana@example.com" }],
};
const tickets = { records: [ticket], ids: ["T-1"], skipped: 0 };

let root: string;
let count = 0;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "formletter-preview-reload-"));
  mkdirSync(join(root, "node_modules", "fl"), { recursive: true });
  writeFileSync(join(root, "node_modules", "fl", "package.json"), '{ "name": "fl", "main": "index.cjs" }');
  writeFileSync(join(root, "node_modules", "fl", "index.cjs"), installedPackage((await builtPackage()).main));
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes a shape's catalog and texts into a new folder under the root (so "fl" resolves). */
function writeShape(shape: Shape, greeting: string, subject: string): { catalog: string; texts: string } {
  const folder = join(root, `case-${++count}`);
  mkdirSync(folder);
  writeFileSync(
    join(folder, "package.json"),
    JSON.stringify(shape.type === undefined ? {} : { type: shape.type }),
  );
  writeFileSync(join(folder, shape.texts), shape.greeting(greeting));
  writeFileSync(join(folder, shape.catalog), shape.module(subject));
  return { catalog: join(folder, shape.catalog), texts: join(folder, shape.texts) };
}

/**
 * The version a catalog with these texts has, loaded here from a folder of its own (never loaded
 * before, so no cache can answer): what the served page must name when it shows these texts.
 */
async function versionOf(shape: Shape, greeting: string, subject: string): Promise<string> {
  return (await loadCatalog(writeShape(shape, greeting, subject).catalog)).catalog.version;
}

type Outcome = { ok: true; version: string } | { ok: false; problem: string };

/** Collects what the server reports, and waits for an outcome the test expects. */
function reloads() {
  const seen: Outcome[] = [];
  let wake = () => {};
  return {
    onReload(outcome: Outcome) {
      seen.push(outcome);
      wake();
    },
    async until(expected: (outcome: Outcome) => boolean): Promise<Outcome> {
      for (;;) {
        const found = seen.find(expected);
        if (found !== undefined) return found;
        await new Promise<void>((done) => {
          wake = done;
        });
      }
    },
  };
}

/**
 * Moves the faked clock on a second at a time, letting the watcher's event and the worker's messages
 * in between, until `outcome` settles: the server's timers fire as if that much time had passed.
 */
async function whileClockRuns<T>(outcome: Promise<T>): Promise<T> {
  let settled = false;
  const done = outcome.finally(() => {
    settled = true;
  });
  while (!settled) {
    await vi.advanceTimersByTimeAsync(1_000);
    await sleep(10);
  }
  return done;
}

/** Serves the catalog module while `run` runs, telling `run` what the server reports. */
async function withPreview(
  file: string,
  run: (server: PreviewServer, events: ReturnType<typeof reloads>) => Promise<void>,
  limits?: { loadMs?: number },
): Promise<void> {
  const events = reloads();
  const server = await startPreviewServer({
    file,
    tickets,
    limit: 50,
    port: 0,
    onReload: events.onReload,
    ...(limits === undefined ? {} : { limits }),
  });
  try {
    await run(server, events);
  } finally {
    await server.close();
  }
}

/** What the served page shows: its status, the message text, the catalog version and the warning. */
async function served(server: PreviewServer) {
  const answer = await fetch(`${server.url}/`);
  const html = await answer.text();
  const versionEndpoint = await (await fetch(`${server.url}/version`)).text();
  return {
    status: answer.status,
    html,
    version: /catalog version ([0-9a-f]+)/.exec(html)?.[1],
    endpoint: versionEndpoint.split(":")[1],
    warning: /<p class="warning" role="alert">([^<]*)<\/p>/.exec(html)?.[1],
  };
}

describe("formletter preview reloads what the catalog module and its imports now say", () => {
  // Each case serves its own folder on its own port, and mostly waits for its workers to load: the cases
  // run side by side, but for the one that fakes the clock, which is the process's.
  it.for(shapes)(
    "$name: a change to the imported file or to the module is served with its own version; a module that fails keeps the last good one",
    { concurrent: true, timeout: 240_000 },
    async (shape, { expect }) => {
      const files = writeShape(shape, "Hello v1", "Order");
      await withPreview(files.catalog, async (server, events) => {
        const first = await served(server);
        expect(first.html).toContain("Hello v1 about order 4471-2290.");
        expect(first.version).toBe(await versionOf(shape, "Hello v1", "Order"));
        expect(first.endpoint).toBe(first.version);

        // Only the module changes: its new text is served, not a copy cached when it first loaded.
        const second = await versionOf(shape, "Hello v1", "Parcel");
        expect(second).not.toBe(first.version);
        writeFileSync(files.catalog, shape.module("Parcel"));
        await events.until((outcome) => outcome.ok && outcome.version === second);
        const page = await served(server);
        expect(page.html).toContain("Parcel 4471-2290");
        expect(page.html).toContain("Hello v1 about order 4471-2290.");
        expect([page.version, page.endpoint, page.warning]).toEqual([second, second, undefined]);

        // The imported file breaks: the last good version stays, with the failure naming the file.
        writeFileSync(files.texts, `${readFileSync(files.texts, "utf8")}\n)(\n`);
        const failed = await events.until((outcome) => !outcome.ok);
        const problem = failed.ok ? "" : failed.problem;
        expect(problem).toContain(`cannot load ${files.catalog}`);
        expect(problem).toContain(files.texts);
        const kept = await served(server);
        expect(kept.status).toBe(200);
        expect(kept.html).toContain("Hello v1 about order 4471-2290.");
        expect([kept.version, kept.endpoint]).toEqual([second, second]);
        expect(kept.warning).toContain("showing the last good one");
        expect(kept.warning).toContain(shape.texts);

        // Only the imported file changes, fixed with a new text: the module is evaluated with it.
        const third = await versionOf(shape, "Good day v3", "Parcel");
        writeFileSync(files.texts, shape.greeting("Good day v3"));
        await events.until((outcome) => outcome.ok && outcome.version === third);
        const fixed = await served(server);
        expect(fixed.html).toContain("Good day v3 about order 4471-2290.");
        expect(fixed.html).not.toContain("Hello v1");
        expect([fixed.version, fixed.endpoint, fixed.warning]).toEqual([third, third, undefined]);
      });
    },
  );

  it.for([shapes[0] as Shape, shapes[2] as Shape])(
    "$name through a symbolic link: loads, reloads when the file it points at changes, and when the link is pointed elsewhere",
    { concurrent: true, timeout: 240_000 },
    async (shape, { expect }) => {
      const a = writeShape(shape, "From A", "Order");
      const b = writeShape(shape, "From B", "Order");
      const link = join(root, `linked-${++count}-${shape.catalog}`);
      symlinkSync(a.catalog, link);
      await withPreview(link, async (server, events) => {
        expect((await served(server)).html).toContain("From A about order");
        const edited = await versionOf(shape, "Edited A", "Order");
        writeFileSync(a.texts, shape.greeting("Edited A"));
        await events.until((outcome) => outcome.ok && outcome.version === edited);
        expect((await served(server)).html).toContain("Edited A about order");

        const other = await versionOf(shape, "From B", "Order");
        unlinkSync(link);
        symlinkSync(b.catalog, link);
        await events.until((outcome) => outcome.ok && outcome.version === other);
        const page = await served(server);
        expect(page.html).toContain("From B about order");
        expect(page.version).toBe(other);
      });
    },
  );

  it("keeps serving when a new version never finishes loading, ends its thread or throws hostile text while loading", async () => {
    const shape = shapes[2] as Shape;
    const files = writeShape(shape, "Steady", "Order");
    // Long enough for the good version to load on a busy machine; the bad one is given up when the
    // server's clock passes it, moved on here rather than waited out.
    await withPreview(
      files.catalog,
      async (server, events) => {
        const steady = (await served(server)).version;
        vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
        let looped: Outcome;
        try {
          writeFileSync(files.texts, "setInterval(() => {}, 1000);\nawait new Promise(() => {});\n");
          looped = await whileClockRuns(events.until((outcome) => !outcome.ok));
        } finally {
          vi.useRealTimers();
        }
        expect(looped.ok ? "" : looped.problem).toMatch(
          /cannot load .*catalog\.mjs: it did not finish loading within 30 s/,
        );
        writeFileSync(files.texts, "process.exit(3);\n");
        const exited = await events.until(
          (outcome) => !outcome.ok && outcome.problem.includes("exit code 3"),
        );
        expect(exited.ok ? "" : exited.problem).toMatch(
          /cannot load .*catalog\.mjs: its code ended the thread/,
        );
        // A failure's text is the module's to choose: it is shown as text, never as markup.
        writeFileSync(files.texts, 'throw new Error("<img src=x onerror=alert(1)>");\n');
        await events.until((outcome) => !outcome.ok && outcome.problem.includes("<img"));
        const page = await served(server);
        expect(page.html).toContain("Steady about order");
        expect(page.version).toBe(steady);
        expect(page.warning).toContain("&lt;img src=x onerror=alert(1)&gt;");
        expect(page.html).not.toContain("<img");
      },
      { loadMs: 30_000 },
    );
  }, 240_000);

  it.concurrent("stays up when the catalog's code throws outside any call while a page renders, and loads it again", async ({
    expect,
  }) => {
    const folder = join(root, `case-${++count}`);
    mkdirSync(folder);
    const catalog = join(folder, "catalog.mjs");
    // The label of an order throws later, from a timer: an uncaught error where the page is rendered.
    writeFileSync(
      catalog,
      esm("", "catalog.mjs", "texts.mjs")
        .module("Order")
        .replace(
          "const records = defineRecords({",
          "const late = (order) => { setTimeout(() => { throw new Error('late failure'); }); return 'order ' + order.number; };\nconst records = defineRecords({",
        )
        .replace(/\n\}\);\nconst \{ slot \}/, "\n}, { labels: { orders: late } });\nconst { slot }"),
    );
    writeFileSync(join(folder, "texts.mjs"), "export const greeting = `Still here`;\n");
    await withPreview(catalog, async (server, events) => {
      const before = await served(server);
      expect(before.status, before.html).toBe(200);
      expect(before.html).toContain("Still here about order");
      // The worker that rendered it ended, which is told; the server loads the catalog again and answers from the new one.
      const stopped = await events.until((outcome) => !outcome.ok);
      expect(stopped.ok ? "" : stopped.problem).toMatch(
        new RegExp(
          `^${catalog}: its code threw: late failure \\(at ${catalog}:\\d+\\); loading the catalog again$`,
        ),
      );
      await events.until((outcome) => outcome.ok && outcome.version === before.version);
      const after = await served(server);
      expect(after.status, after.html).toBe(200);
      expect(after.html).toContain("Still here about order");
      expect(after.version).toBe(before.version);
    });
  }, 240_000);

  it.concurrent("refuses to start with a catalog that does not load, naming the module and the imported file at fault", async ({
    expect,
  }) => {
    const shape = shapes[2] as Shape;
    const files = writeShape(shape, "Never", "Order");
    writeFileSync(files.texts, "export const greeting = ;\n");
    const result = await cli(["preview", "--catalog", files.catalog, "--port", "0"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot load ${files.catalog}`);
    expect(result.stderr).toContain(files.texts);
  }, 120_000);
});
