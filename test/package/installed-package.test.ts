import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { labelledCatalogModule } from "../fixtures/labelled-catalog-module.js";
import { quickStart, quickStartJavaScript } from "./readme.js";
import { run, usePackedPackage } from "./scratch-project.js";

// The packed tarball, installed as a user would with `npm install formletter zod` and nothing else.
const packed = usePackedPackage();
const version = (await import("../../package.json", { with: { type: "json" } })).default.version;

beforeAll(() => {
  const { folder } = packed;
  writeFileSync(join(folder, "catalog.mjs"), labelledCatalogModule("formletter"));
  writeFileSync(
    join(folder, "history.jsonl"),
    `${JSON.stringify({ ticketId: "t-1", records: { notes: [], buyers: [] }, output: { action: "escalate" } })}\n`,
  );
  writeFileSync(join(folder, "outbox.db"), "");
  writeFileSync(
    join(folder, "relay.mjs"),
    'export { catalog } from "./catalog.mjs";\nexport const load = (ticketId) => ({ ticketId, notes: [], buyers: [] });\n',
  );
});

/** Runs the installed `formletter` command in the project; a failure is returned, not thrown. */
async function formletter(...args: string[]) {
  try {
    const { stdout, stderr } = await run(join(packed.project, "node_modules/.bin/formletter"), args, {
      cwd: packed.folder,
      env: { ...process.env, FORMLETTER_SECRET: "s".repeat(40) },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Runs a script in the project with node (ESM, or CommonJS with `.cjs`), returning what it printed. */
const script = (name: string, source: string): Promise<string> => packed.runScript(name, source);

const sqliteMissing =
  'formletter: the SQLite store (formletter/sqlite) needs the "better-sqlite3" package, which is not installed: run `npm install better-sqlite3`\n';

describe("the packed package, installed without its optional peers", () => {
  it("runs the README's quick start as written there", async () => {
    expect(quickStart()).toContain("catalog.decide(");
    // The reader runs it with tsx; here the types are stripped and node runs what remains.
    const printed = await script("quick-start.mjs", quickStartJavaScript());
    expect(printed).toContain("outcome: 'send'");
    expect(printed).toContain("to: 'shop@example.com'");
    expect(printed).toContain("Please send us the tracking number of order 4471-2290.");
  });

  it("ships its MIT licence", () => {
    const licence = readFileSync(join(packed.project, "node_modules/formletter/LICENSE"), "utf8");
    expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} formletter contributors\n/);
  });

  it("runs --version and --help", async () => {
    const [printedVersion, help] = await Promise.all([formletter("--version"), formletter("--help")]);
    expect(printedVersion).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
    expect(help.code).toBe(0);
    for (const command of ["check", "capacity", "cost", "replay", "mine", "token", "queue", "serve"])
      expect(help.stdout).toContain(command);
  });

  it("checks a catalog", async () => {
    const checked = await formletter("check", "catalog.mjs");
    expect(checked.stderr).toBe("");
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain("note_back");
  });

  it("shows the field labels in capacity, not unknown", async () => {
    const { code, stdout } = await formletter("capacity", "catalog.mjs", "--json");
    expect(code).toBe(0);
    const fields = (
      JSON.parse(stdout) as { templates: { fields: { field: string; label: string; author?: string }[] }[] }
    ).templates[0]?.fields;
    expect(fields?.find((field) => field.field === "body")).toMatchObject({
      label: "untrusted",
      author: "buyer",
    });
    expect(fields?.find((field) => field.field === "email")).toMatchObject({ label: "private" });
    expect(stdout).not.toContain('"unknown"');
  });

  it("mints a task token, which needs no database", async () => {
    const minted = await formletter("token", "mint", "--ticket", "T-1", "--run", "run-1");
    expect(minted.code).toBe(0);
    expect(minted.stdout.trim()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it("replays a history, which needs no database", async () => {
    const replay = await formletter("replay", "catalog.mjs", "history.jsonl", "--json");
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ overall: { decided: 1 } });
  });

  it("says in one line what to install for a command that needs SQLite", async () => {
    const commands = [
      ["queue", "list", "--db", "outbox.db"],
      ["report", "--db", "outbox.db"],
      ["serve", "--catalog", "relay.mjs", "--db", "relay.db", "--port", "0"],
    ];
    for (const result of await Promise.all(commands.map((args) => formletter(...args))))
      expect(result).toEqual({ code: 1, stdout: "", stderr: sqliteMissing });
  });

  it("loads formletter/ai-sdk without the AI SDK, and names the missing peer when tools are made", async () => {
    const source = (load: string) => `${load}
formletterTools({}).then(() => console.log("made"), (error) => console.log(error.code + ": " + error.message));
`;
    const missing =
      'dependency_missing: the AI SDK adapter (formletter/ai-sdk) needs the "ai" package, which is not installed: run `npm install ai`';
    const [esm, cjs] = await Promise.all([
      script("ai-sdk.mjs", source('import { formletterTools } from "formletter/ai-sdk";')),
      script("ai-sdk.cjs", source('const { formletterTools } = require("formletter/ai-sdk");')),
    ]);
    expect(esm).toBe(missing);
    expect(cjs).toBe(missing);
  });

  it("loads formletter/mcp and the relay without the MCP SDK, and names the missing peer when a server is made", async () => {
    const source = (load: string) => `${load}
try { createMcpServer({}); console.log("made"); } catch (error) { console.log(error.code + ": " + error.message); }
`;
    const missing =
      'dependency_missing: the MCP server (formletter/mcp) needs the "@modelcontextprotocol/sdk" package, which is not installed: run `npm install @modelcontextprotocol/sdk`';
    const esm =
      'import "formletter/relay";\nimport "formletter/agent-tools";\nimport { createMcpServer } from "formletter/mcp";';
    const printed = await Promise.all([
      script("mcp.mjs", source(esm)),
      script("mcp.cjs", source('const { createMcpServer } = require("formletter/mcp");')),
    ]);
    expect(printed).toEqual([missing, missing]);
  });

  it("loads formletter/providers without any provider SDK, and each transport names the package to install", async () => {
    const source = (load: string) => `${load}
const made = [
  ["postmark", () => postmarkTransport({ serverToken: "t", from: "a@example.com" })],
  ["resend", () => resendTransport({ apiKey: "re_x", from: "a@example.com" })],
  ["@aws-sdk/client-sesv2", () => sesTransport({ region: "eu-west-1", from: "a@example.com" })],
  ["@sendgrid/mail", () => sendgridTransport({ apiKey: "SG.x", from: "a@example.com" })],
  ["twilio", () => twilioTransport({ accountSid: "AC" + "0".repeat(32), authToken: "t", from: "+14155550100" })],
  ["@slack/web-api", () => slackTransport({ token: "xoxb-1" })],
];
for (const [name, create] of made) {
  try { create(); console.log(name + ": created"); } catch (error) { console.log(error.code + ": " + error.message); }
}
`;
    const names =
      "postmarkTransport, resendTransport, sesTransport, sendgridTransport, twilioTransport, slackTransport";
    const expected = [
      ["Postmark", "postmark"],
      ["Resend", "resend"],
      ["Amazon SES", "@aws-sdk/client-sesv2"],
      ["SendGrid", "@sendgrid/mail"],
      ["Twilio", "twilio"],
      ["Slack", "@slack/web-api"],
    ].map(
      ([provider, name]) =>
        `dependency_missing: the ${provider} transport (formletter/providers) needs the "${name}" package, which is not installed: run \`npm install ${name}\``,
    );
    const [esm, cjs] = await Promise.all([
      script("providers.mjs", source(`import { ${names} } from "formletter/providers";`)),
      script("providers.cjs", source(`const { ${names} } = require("formletter/providers");`)),
    ]);
    expect(esm.split("\n")).toEqual(expected);
    expect(cjs.split("\n")).toEqual(expected);
  });

  it("imports the package and every subpath; a store or transport names its missing peer", async () => {
    const [esm, cjs] = await Promise.all([
      script(
        "subpaths.mjs",
        `import { createCatalog } from "formletter";
import { sqliteStore } from "formletter/sqlite";
import { postgresStore } from "formletter/postgres";
import { smtpTransport } from "formletter/smtp";
// Every subpath but the store conformance suite (which needs vitest) loads with no optional peer.
for (const subpath of ["relay", "testing", "store", "metrics", "llm", "mine"]) await import("formletter/" + subpath);
const failures = [];
for (const create of [
  () => sqliteStore("x.db"),
  () => postgresStore({ connectionString: "postgres://localhost/x" }),
  () => smtpTransport({ host: "localhost", port: 25, secure: false, from: "a@example.com" }),
]) {
  try { create(); failures.push("created"); } catch (error) { failures.push(error.code + ": " + error.message); }
}
console.log(typeof createCatalog + "\\n" + failures.join("\\n"));
`,
      ),
      script(
        "subpaths.cjs",
        `const { sqliteStore } = require("formletter/sqlite");
try { sqliteStore("x.db"); console.log("created"); } catch (error) { console.log(error.code); }
`,
      ),
    ]);
    expect(esm.split("\n")).toEqual([
      "function",
      'dependency_missing: the SQLite store (formletter/sqlite) needs the "better-sqlite3" package, which is not installed: run `npm install better-sqlite3`',
      'dependency_missing: the Postgres store (formletter/postgres) needs the "pg" package, which is not installed: run `npm install pg`',
      'dependency_missing: the SMTP transport (formletter/smtp) needs the "nodemailer" package, which is not installed: run `npm install nodemailer`',
    ]);
    expect(cjs).toBe("dependency_missing");
  });
});
