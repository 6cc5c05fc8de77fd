import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/output.js";
import { serveRelay } from "../../src/cli/serve.js";
import { mintOperatorToken } from "../../src/relay/index.js";
import { type InstalledCatalogs, installedCatalogs } from "../fixtures/installed-catalogs.js";
import { agentSecret, operatorSecret } from "../relay/harness.js";
import { Browser } from "../workspace/rig.js";

// The relay module as a team has it, importing the installed package: loading it compiles no source.
let installed: InstalledCatalogs;
let relayModule: string;
beforeAll(async () => {
  installed = await installedCatalogs(["test/relay/fixtures/relay-module.ts", "test/fixtures/property.ts"]);
  relayModule = installed.at("test/relay/fixtures/relay-module.ts");
}, 120_000);
afterAll(() => installed?.remove());
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "formletter-serve-replies-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const options = (db: string, humanReplies: boolean) => ({
  catalog: relayModule,
  db,
  port: 0,
  host: "127.0.0.1",
  shadow: false,
  flushEvery: 30,
  humanReplies,
});

describe("formletter serve --human-replies", () => {
  it("refuses to start without operator tokens, before opening the database", async () => {
    const db = join(dir, "never.db");
    const io: CliIo = { stdout: () => undefined, stderr: () => undefined };
    await expect(
      serveRelay(options(db, true), io, { FORMLETTER_SECRET: agentSecret }, new AbortController().signal),
    ).rejects.toThrow("--human-replies needs the workspace: set FORMLETTER_OPERATOR_SECRET");
    expect(existsSync(db)).toBe(false);
  });

  it.each([
    [true, 403],
    [false, 404],
  ])(
    "with the flag %s, the reply action exists (a forged token is refused) or is an unknown path",
    async (on, status) => {
      let stdout = "";
      let wrote = () => {};
      const io: CliIo = {
        stdout: (text) => {
          stdout += text;
          wrote();
        },
        stderr: () => undefined,
      };
      const stop = new AbortController();
      const env = { FORMLETTER_SECRET: agentSecret, FORMLETTER_OPERATOR_SECRET: operatorSecret };
      const serving = serveRelay(options(join(dir, "relay.db"), on), io, env, stop.signal);
      try {
        // Until the server says where it serves, or ends (which the lines below then report).
        let ended = false;
        const end = () => {
          ended = true;
          wrote();
        };
        serving.then(end, end);
        while (!stdout.includes('"msg":"serving"') && !ended)
          await new Promise<void>((written) => {
            wrote = written;
          });
        const line = stdout.split("\n").find((text) => text.includes('"msg":"serving"')) ?? "{}";
        const browser = new Browser(String(JSON.parse(line).url));
        const signIn = await browser.signIn(
          await mintOperatorToken({ secret: operatorSecret, operator: "ana" }),
        );
        expect(signIn.status).toBe(303);
        const posted = await browser.request("/queue/items/1/reply", {
          form: { csrf: "forged", text: "hi" },
        });
        expect(posted.status).toBe(status);
      } finally {
        stop.abort();
        await serving;
      }
    },
  );
});
