import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, CommanderError } from "commander";
import { decodeJwt } from "jose";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { importModule } from "../../src/cli/load-catalog.js";
import type { CliIo } from "../../src/cli/output.js";
import { CliError } from "../../src/cli/output.js";
import { registerServeCommand, serveRelay, transportsFromEnv } from "../../src/cli/serve.js";
import { registerTokenCommand } from "../../src/cli/token.js";
import { isFormletterError } from "../../src/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { proposal } from "../fixtures/property.js";
import { agentSecret, auditOf, call, operatorSecret } from "./harness.js";

const fixture = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const relayModule = fixture("./fixtures/relay-module.ts");
const secrets = { FORMLETTER_SECRET: agentSecret, FORMLETTER_OPERATOR_SECRET: operatorSecret };

/** Runs one command as `runCli` would: its output, and exit code 1 for a refused command. */
async function cli(
  register: (program: Command, io: CliIo, env: NodeJS.ProcessEnv) => void,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
) {
  let stdout = "";
  let stderr = "";
  const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) };
  const program = new Command("formletter")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  register(program, io, env);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (error instanceof CommanderError) return { code: 1, stdout, stderr };
    if (error instanceof CliError || isFormletterError(error))
      return { code: 1, stdout, stderr: `${stderr}${(error as Error).message}` };
    throw error;
  }
}

/** The JSON log lines among what `serve` printed (the console transport prints messages between them). */
const logLines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));

const mint = (argv: readonly string[], env: NodeJS.ProcessEnv = secrets) =>
  cli(registerTokenCommand, ["token", "mint", ...argv], env);

describe("formletter token mint", () => {
  it("prints a task token for one ticket and run, with the ttl asked for", async () => {
    const minted = await mint(["--ticket", "T-1", "--run", "run-1", "--ttl", "15m"]);
    expect(minted.code).toBe(0);
    const claims = decodeJwt(minted.stdout.trim());
    expect(claims).toMatchObject({ sub: "T-1", run: "run-1", aud: "formletter-agent" });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(900);
  });

  it("prints an operator token as JSON with --operator --json", async () => {
    const minted = await mint(["--operator", "ana@example.com", "--ttl", "2h", "--json"]);
    const printed = JSON.parse(minted.stdout);
    expect(printed).toMatchObject({ audience: "formletter-operator", expiresAt: expect.any(String) });
    expect(decodeJwt(printed.token)).toMatchObject({ sub: "ana@example.com", aud: "formletter-operator" });
    expect(Date.parse(printed.expiresAt) - Date.now()).toBeGreaterThan(7_000_000);
  });

  it.each([
    [["--ticket", "T-1"], secrets, "--ticket and --run"],
    [["--ticket", "T-1", "--run", "r", "--operator", "ana"], secrets, "not both"],
    [["--ticket", "T-1", "--run", "r", "--ttl", "soon"], secrets, "--ttl: give seconds"],
    [["--ticket", "T-1", "--run", "r", "--ttl", "2d"], secrets, "ttl must be"],
    [["--ticket", "T-1", "--run", "r"], {}, "FORMLETTER_SECRET is not set"],
    [
      ["--ticket", "T-1", "--run", "r"],
      { FORMLETTER_SECRET: "short" },
      "FORMLETTER_SECRET must be at least 32 bytes",
    ],
    [["--operator", "ana"], { FORMLETTER_SECRET: agentSecret }, "FORMLETTER_OPERATOR_SECRET is not set"],
  ] as const)("refuses %j", async (argv, env, message) => {
    const refused = await mint(argv, env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(message);
  });
});

describe("formletter serve", () => {
  // Loads the relay module once, so the first test does not pay for compiling the library.
  beforeAll(() => importModule(relayModule).then(() => undefined), 30_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "formletter-serve-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const options = (db: string) => ({
    catalog: relayModule,
    db,
    port: 0,
    host: "127.0.0.1",
    shadow: false,
    flushEvery: 30,
  });

  it("serves the module's catalog on a SQLite file until stopped, delivering on the console transport", async () => {
    const db = join(dir, "relay.db");
    const marker = join(dir, "closed");
    let stdout = "";
    const io: CliIo = { stdout: (text) => (stdout += text), stderr: () => undefined };
    const stop = new AbortController();
    // The module reads its marker path from the process environment, as a loader reads its settings.
    process.env.RELAY_MODULE_CLOSED_FILE = marker;
    const serving = serveRelay(options(db), io, secrets, stop.signal);
    for (let waited = 0; !stdout.includes('"msg":"serving"') && waited < 5_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const started = logLines(stdout).find((line) => line.msg === "serving");
    expect(started).toMatchObject({ transports: "email=console", url: expect.stringMatching(/^http:/) });
    const url = String(started?.url);

    const token = (await mint(["--ticket", "T-1", "--run", "run-1"])).stdout.trim();
    const sent = await call(url, "/v1/proposals", { token, json: { output: proposal("T-1") } });
    expect(sent.body).toEqual({ outcome: "send" });
    expect(stdout).toContain("to:       works-t-1@builders.example");
    const operator = (await mint(["--operator", "ana@example.com"])).stdout.trim();
    expect((await call(url, "/v1/queue", { token: operator })).status).toBe(200);
    // With operator tokens on, the workspace is served beside the API.
    expect(started?.workspace).toBe(`${url}/queue/`);
    const signIn = await fetch(`${url}/queue/sign-in`);
    expect([signIn.status, await signIn.text()]).toEqual([200, expect.stringContaining("operator token")]);

    stop.abort();
    await serving;
    delete process.env.RELAY_MODULE_CLOSED_FILE;
    expect(logLines(stdout).map((line) => line.msg)).toContain("stopping");
    expect(existsSync(marker)).toBe(true);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    const store = sqliteStore(db);
    expect((await auditOf(store, { type: "decision" })).map((event) => event.ticketId)).toEqual(["T-1"]);
    await store.close();
  });

  it.each([
    [{}, relayModule, "FORMLETTER_SECRET is not set"],
    [{ FORMLETTER_SECRET: "short" }, relayModule, "FORMLETTER_SECRET must be at least 32 bytes"],
    [{ FORMLETTER_SECRET: agentSecret, FORMLETTER_OPERATOR_SECRET: agentSecret }, relayModule, "must differ"],
    [secrets, fixture("./fixtures/missing.ts"), "no catalog module"],
    [secrets, fixture("../../templates/seller.ts"), "exports no catalog"],
    [secrets, fixture("./fixtures/catalog-only.ts"), "exports no load function"],
    [{ ...secrets, SMTP_HOST: "smtp.example.com" }, relayModule, "SMTP_FROM"],
    [{ ...secrets, WEBHOOK_URL: "not a url" }, relayModule, "WEBHOOK_URL"],
    [
      {
        ...secrets,
        WEBHOOK_URL: "https://hooks.example.com/in",
        WEBHOOK_SECRET: `whsec_${"s".repeat(32)}`,
        WEBHOOK_CHANNELS: "sms",
      },
      relayModule,
      "sends on email",
    ],
  ] as const)(
    "refuses to start with %j and module %s, before opening the database",
    async (env, module, message) => {
      const db = join(dir, "never.db");
      const stop = new AbortController();
      const io: CliIo = { stdout: () => undefined, stderr: () => undefined };
      await expect(serveRelay({ ...options(db), catalog: module }, io, env, stop.signal)).rejects.toThrow(
        message,
      );
      expect(existsSync(db)).toBe(false);
    },
  );

  it("says so when the port is taken, and closes what it opened", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    const io: CliIo = { stdout: () => undefined, stderr: () => undefined };
    try {
      await expect(
        serveRelay({ ...options(join(dir, "relay.db")), port }, io, secrets, new AbortController().signal),
      ).rejects.toThrow(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it("refuses a port out of range", async () => {
    const refused = await cli(
      registerServeCommand,
      ["serve", "--catalog", relayModule, "--db", join(dir, "x.db"), "--port", "70000"],
      secrets,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--port 70000");
  });
});

describe("transports from the environment", () => {
  const io: CliIo = { stdout: () => undefined, stderr: () => undefined };
  const webhook = { WEBHOOK_URL: "https://hooks.example.com/in", WEBHOOK_SECRET: `whsec_${"A".repeat(44)}` };

  it("uses the console for every channel when nothing is configured", async () => {
    const { summary } = await transportsFromEnv({}, new Set(["email", "sms"]), io);
    expect(summary).toBe("email=console, sms=console");
  });

  it("sends e-mail by SMTP and the other channels by webhook", async () => {
    const env = { SMTP_HOST: "smtp.example.com", SMTP_FROM: "support@example.com", ...webhook };
    const { summary, transports } = await transportsFromEnv(env, new Set(["email", "sms", "chat"]), io);
    expect(summary).toBe("email=smtp, sms=webhook, chat=webhook");
    await transports.email?.close?.();
  });

  it("refuses half an SMTP login, and a webhook without its secret", async () => {
    const smtp = { SMTP_HOST: "smtp.example.com", SMTP_FROM: "support@example.com", SMTP_USER: "me" };
    await expect(transportsFromEnv(smtp, new Set(["email"]), io)).rejects.toThrow("SMTP_PASSWORD");
    await expect(
      transportsFromEnv({ WEBHOOK_URL: webhook.WEBHOOK_URL }, new Set(["sms"]), io),
    ).rejects.toThrow("WEBHOOK_SECRET");
  });
});
