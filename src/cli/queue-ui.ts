import { randomBytes } from "node:crypto";
import { Command } from "commander";
import { printableLine } from "../core/message/sanitize.js";
import { startServer } from "../relay/server.js";
import { operatorAudience, secretKey, signOperatorToken } from "../relay/tokens.js";
import { createTokenVerifier } from "../relay/verify-token.js";
import type { Store } from "../store/index.js";
import { storeSource } from "../workspace/source.js";
import { createWorkspace } from "../workspace/workspace.js";
import { openStore } from "./open-store.js";
import { CliError, type CliIo } from "./output.js";
import { actorOption } from "./queue-refusal.js";

/** What `formletter queue --ui` was asked for. */
export interface QueueUiOptions {
  readonly db: string;
  /** The operator the printed sign-in token names. */
  readonly by: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  readonly port: number;
  /** The outbox's contact key, so a released first contact records its destination. */
  readonly contactKey?: string | undefined;
}

/** The running workspace: where to open it, the token to sign in with, and how to stop it. */
export interface QueueUi {
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
}

/**
 * The workspace for one person on this machine, over the outbox's SQLite file: served on 127.0.0.1
 * only, answering only requests that name that host and port (a web page elsewhere cannot reach it
 * through a rebound DNS name). It holds no transports, so approving releases the draft to the running
 * outbox's next flush(). Sign-in takes an operator token like the relay's; the key that signs it is made
 * for this run and kept in memory, so the printed token opens this server and nothing else, and ends
 * with it.
 */
export async function startQueueUi(options: QueueUiOptions): Promise<QueueUi> {
  const store: Store = openStore(options.db);
  const operatorKey = secretKey(randomBytes(32));
  const verify = createTokenVerifier({
    // A task token never verifies here: no agent key of this run was ever given out.
    agentKey: secretKey(randomBytes(32)),
    operatorKey,
    issuer: "formletter",
    clock: Date.now,
    clockToleranceSeconds: 5,
    cacheMs: 30_000,
    cacheSize: 100,
  });
  let hosts: ReadonlySet<string> = new Set();
  const workspace = createWorkspace({
    source: storeSource(store, options.contactKey === undefined ? {} : { contactKey: options.contactKey }),
    verifyOperator: (token) => {
      const verified = verify(token, operatorAudience);
      if (!verified.ok) return { ok: false, refusal: verified.refusal };
      const claims = verified.claims;
      return claims.audience === operatorAudience
        ? { ok: true, operator: claims.operator, expiresAt: claims.expiresAt }
        : { ok: false, refusal: "wrong_audience" };
    },
    allowedHosts: () => hosts,
    secureCookies: false,
  });
  const server = await startServer(workspace.fetch, {
    port: options.port,
    host: "127.0.0.1",
    requestTimeoutMs: 30_000,
  }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const { port } = server.address;
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const token = await signOperatorToken(
    { key: operatorKey, issuer: "formletter" },
    { operator: options.by, ttl: 8 * 3600, now: Date.now() },
  );
  return {
    url: `${server.address.url}${workspace.basePath}/`,
    token,
    async close() {
      workspace.close();
      await server.close(1000);
      await store.close();
    },
  };
}

/**
 * `formletter queue --ui --db FILE --by WHO [--port 0]`: the workspace until Ctrl-C. The options are read
 * by a parser of their own, so that `--db` stays the subcommands' option (`formletter queue list --db`).
 */
export function registerQueueUi(queue: Command, io: CliIo): void {
  queue
    .option("--ui", "serve the web workspace on 127.0.0.1 (with --db FILE --by WHO [--port N])")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (flags: { ui?: boolean }, command: Command) => {
      if (flags.ui !== true) return command.help({ error: true });
      const parsed = new Command("queue --ui")
        .exitOverride()
        .configureOutput({ writeErr: () => undefined })
        .requiredOption("--db <file>", "the outbox's SQLite file")
        .requiredOption("--by <who>", "who signs in")
        .option("--port <port>", "TCP port on 127.0.0.1; 0 picks a free one", "8788");
      try {
        parsed.parse(command.args, { from: "user" });
      } catch (error) {
        throw new CliError(
          `formletter queue --ui: ${error instanceof Error ? error.message.replace(/^error: /, "") : String(error)}`,
        );
      }
      const options = parsed.opts<{ db: string; by: string; port: string }>();
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535)
        throw new CliError(`--port ${options.port}: give 0 to 65535`);
      const ui = await startQueueUi({
        db: options.db,
        by: actorOption(options.by),
        port,
        contactKey: process.env.FORMLETTER_CONTACT_KEY || undefined,
      });
      io.stdout(
        `the queue's workspace is at ${ui.url}\nsign in with this operator token (for ${printableLine(actorOption(options.by))}, valid while this runs, at most 8 hours):\n${ui.token}\n`,
      );
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      try {
        await new Promise((done) => stop.signal.addEventListener("abort", done, { once: true }));
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
        await ui.close();
      }
    });
}
