import type { Command } from "commander";
import type { Logger } from "pino";
import { channels as allChannels, type Channel } from "../core/definition/channels.js";
import { createOutbox } from "../outbox/index.js";
import type { RelayModule } from "../relay/module.js";
import { createRelay } from "../relay/relay.js";
import { secretBytes } from "../relay/tokens.js";
import { sqliteStore } from "../store/sqlite/index.js";
import { consoleTransport } from "../transport/console.js";
import type { Transport } from "../transport/transport.js";
import { webhookTransport } from "../transport/webhook.js";
import { importModule, isCatalog } from "./load-catalog.js";
import type { CliIo } from "./output.js";
import { CliError, terminalSafe } from "./output.js";
import { type SecretName, secretFromEnv } from "./token.js";

/** What `formletter serve` was asked for. */
export interface ServeOptions {
  readonly catalog: string;
  readonly db: string;
  readonly port: number;
  readonly host: string;
  readonly shadow: boolean;
  /** Seconds between deliveries of what is pending (approvals from the CLI, a crash's leftovers). */
  readonly flushEvery: number;
  /** The workspace lets people write their own replies (needs FORMLETTER_OPERATOR_SECRET). */
  readonly humanReplies?: boolean;
}

/** Loads the relay module through jiti (TypeScript or JavaScript), checking the contract. */
export async function loadRelayModule(file: string): Promise<RelayModule> {
  const { module } = await importModule(file);
  const exports = isCatalog(module.catalog) ? module : ((module.default ?? {}) as Record<string, unknown>);
  const contract = "export `catalog` (built with createCatalog) and `load(ticketId)` (your records loader)";
  if (!isCatalog(exports.catalog)) throw new CliError(`${file} exports no catalog: ${contract}`);
  if (typeof exports.load !== "function") throw new CliError(`${file} exports no load function: ${contract}`);
  const close = typeof exports.close === "function" ? (exports.close as () => unknown) : undefined;
  return { catalog: exports.catalog, load: exports.load as RelayModule["load"], ...(close ? { close } : {}) };
}

/** A secret from the environment, checked before anything is opened, and named by its variable. */
function checkedSecret(env: NodeJS.ProcessEnv, name: SecretName): string {
  const secret = secretFromEnv(env, name);
  try {
    secretBytes(secret, name);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  return secret;
}

const flag = (value: string | undefined, fallback: boolean) =>
  value === undefined || value === "" ? fallback : /^(1|true|yes)$/i.test(value);

/**
 * The transports, from the environment. SMTP_* delivers e-mail, WEBHOOK_* the channels in WEBHOOK_CHANNELS
 * (by default every channel SMTP does not serve). With neither set, every channel prints to the console,
 * for local use; once either is set, a channel left without a transport stops the relay from starting.
 */
export async function transportsFromEnv(
  env: NodeJS.ProcessEnv,
  channels: ReadonlySet<Channel>,
  io: CliIo,
): Promise<{ transports: Partial<Record<Channel, Transport>>; summary: string }> {
  const transports: Partial<Record<Channel, Transport>> = {};
  if (env.SMTP_HOST) {
    const port = Number(env.SMTP_PORT ?? "587");
    if (!env.SMTP_FROM) throw new CliError("SMTP_HOST is set but SMTP_FROM is not: the sender address");
    if (Boolean(env.SMTP_USER) !== Boolean(env.SMTP_PASSWORD))
      throw new CliError("set both SMTP_USER and SMTP_PASSWORD, or neither");
    // Loaded only when asked for: nodemailer is an optional peer dependency.
    const { smtpTransport } = await import("../transport/smtp/index.js");
    transports.email = smtpTransport({
      host: env.SMTP_HOST,
      port,
      secure: flag(env.SMTP_SECURE, port === 465),
      from: env.SMTP_FROM,
      requireTLS: flag(env.SMTP_REQUIRE_TLS, true),
      ...(env.SMTP_USER && env.SMTP_PASSWORD
        ? { auth: { user: env.SMTP_USER, pass: env.SMTP_PASSWORD } }
        : {}),
    });
  }
  if (env.WEBHOOK_URL) {
    let url: URL;
    try {
      url = new URL(env.WEBHOOK_URL);
    } catch {
      throw new CliError("WEBHOOK_URL is not an absolute URL");
    }
    // WEBHOOK_SECRET holds one Standard Webhooks secret, or several separated by spaces while rotating.
    const secrets = secretFromEnv(env, "WEBHOOK_SECRET").split(/\s+/).filter(Boolean);
    let webhook: Transport;
    try {
      webhook = webhookTransport({
        url: env.WEBHOOK_URL,
        allowHosts: [url.hostname.replace(/^\[(.*)\]$/, "$1")],
        secret: secrets,
        ...(env.WEBHOOK_TIMEOUT_MS ? { timeoutMs: Number(env.WEBHOOK_TIMEOUT_MS) } : {}),
      });
    } catch (error) {
      throw new CliError(`WEBHOOK_*: ${error instanceof Error ? error.message : String(error)}`);
    }
    const listed = env.WEBHOOK_CHANNELS?.split(",")
      .map((channel) => channel.trim())
      .filter(Boolean);
    for (const channel of listed ?? [...channels].filter((channel) => transports[channel] === undefined)) {
      if (!allChannels.includes(channel as Channel))
        throw new CliError(`WEBHOOK_CHANNELS: "${channel}" is not a channel (${allChannels.join(", ")})`);
      transports[channel as Channel] = webhook;
    }
  }
  const configured = Object.keys(transports).length > 0;
  for (const channel of channels) {
    if (transports[channel] !== undefined) continue;
    if (configured)
      throw new CliError(
        `the catalog sends on ${channel}, but no transport is set for it (SMTP_* or WEBHOOK_CHANNELS)`,
      );
    transports[channel] = consoleTransport({ write: io.stdout });
  }
  const summary = [...channels].map((channel) => `${channel}=${transports[channel]?.name}`).join(", ");
  return { transports, summary };
}

/**
 * The log of `formletter serve`: pino's JSON lines on standard output, one per request and one per
 * event of the server (listening, flushes, failures, stopping). Fields only, never content.
 */
export async function serveLogger(io: CliIo): Promise<Logger> {
  // Loaded when serving: the other commands print for people and need no log library.
  const { pino } = await import("pino");
  return pino({ name: "formletter-relay" }, { write: (line: string) => io.stdout(line) });
}

/** An error's code or name for a log line: its message may quote a record or an address. */
function errorKind(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.name : typeof error;
}

/**
 * Runs the relay until `signal` aborts: the outbox on a SQLite file, the HTTP server, and a flush of
 * pending deliveries at start and every `flushEvery` seconds. Secrets come from the environment only.
 * It logs JSON lines on standard output (see {@link serveLogger}).
 */
export async function serveRelay(
  options: ServeOptions,
  given: CliIo,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
) {
  // Delivered messages print here when no transport is set: their text came from records.
  const io = terminalSafe(given);
  // Through printable() like every byte the CLI writes: a token's subject may hold control characters,
  // and printable()'s escapes are JSON's, so each line stays JSON with the same values.
  const logger = await serveLogger(io);
  const secret = checkedSecret(env, "FORMLETTER_SECRET");
  const operatorSecret = env.FORMLETTER_OPERATOR_SECRET
    ? checkedSecret(env, "FORMLETTER_OPERATOR_SECRET")
    : undefined;
  if (operatorSecret === secret)
    throw new CliError(
      "FORMLETTER_OPERATOR_SECRET must differ from FORMLETTER_SECRET, or a task token's minter could mint operator tokens",
    );
  if (options.humanReplies === true && operatorSecret === undefined)
    throw new CliError(
      "--human-replies needs the workspace: set FORMLETTER_OPERATOR_SECRET (people sign in with operator tokens)",
    );
  const module = await loadRelayModule(options.catalog);
  const channels = new Set(module.catalog.templates.map((template) => template.channel));
  const { transports, summary } = options.shadow
    ? { transports: {}, summary: "none (shadow mode)" }
    : await transportsFromEnv(env, channels, io);
  const store = sqliteStore(options.db);
  const outbox = createOutbox({
    catalog: module.catalog,
    load: module.load,
    store,
    transports,
    mode: options.shadow ? "shadow" : "live",
    // First contact: destinations are recorded as HMACs under this key (docs/controls.md).
    ...(env.FORMLETTER_CONTACT_KEY ? { contactKey: checkedSecret(env, "FORMLETTER_CONTACT_KEY") } : {}),
  });
  let relay: ReturnType<typeof createRelay> | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    relay = createRelay({
      outbox,
      secret,
      // People work the queue in a browser at /queue, signing in with the same operator tokens.
      ...(operatorSecret === undefined
        ? {}
        : { operatorSecret, workspace: options.humanReplies === true ? { humanReplies: true } : true }),
      logger,
    });
    let flushing = false;
    const flush = async () => {
      // A slow transport can make one flush outlast the interval: the next waits its turn.
      if (flushing) return;
      flushing = true;
      try {
        const { delivered, failed } = await outbox.flush();
        if (delivered + failed > 0) logger.info({ delivered, failed }, "flushed pending messages");
      } catch (error) {
        logger.error({ error: errorKind(error) }, "flush failed");
      } finally {
        flushing = false;
      }
    };
    await flush();
    const address = await relay.listen({ port: options.port, host: options.host }).catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      throw new CliError(
        `cannot listen on ${options.host}:${options.port} (${typeof code === "string" ? code : String(error)})`,
      );
    });
    logger.info(
      {
        catalog: options.catalog,
        catalogVersion: module.catalog.version,
        database: options.db,
        url: address.url,
        transports: summary,
        operatorEndpoints: operatorSecret !== undefined,
        ...(operatorSecret === undefined ? {} : { workspace: `${address.url}/queue/` }),
      },
      "serving",
    );
    if (operatorSecret === undefined)
      logger.warn({}, "operator endpoints are off: FORMLETTER_OPERATOR_SECRET is not set");
    if (!["127.0.0.1", "::1", "localhost"].includes(options.host))
      logger.warn({ host: options.host }, "reachable from the network: put TLS in front of the relay");
    timer = setInterval(flush, options.flushEvery * 1000);
    if (!signal.aborted) await new Promise((done) => signal.addEventListener("abort", done, { once: true }));
    logger.info({}, "stopping");
  } finally {
    clearInterval(timer);
    await relay?.close();
    await outbox.close();
    await module.close?.();
  }
}

/** `formletter serve --catalog MODULE --db FILE [--port 8787] [--host 127.0.0.1] [--shadow]`. */
export function registerServeCommand(
  program: Command,
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): void {
  program
    .command("serve")
    .description(
      "run the relay: the outbox as an HTTP service for agents holding task tokens (secrets and transports from the environment: FORMLETTER_SECRET, FORMLETTER_OPERATOR_SECRET, SMTP_*, WEBHOOK_*)",
    )
    .requiredOption("--catalog <module>", "a module exporting `catalog` and `load(ticketId)`")
    .requiredOption("--db <file>", "the outbox's SQLite file (created if missing)")
    .option("--port <port>", "TCP port; 0 picks a free one", "8787")
    .option("--host <address>", "interface to bind; loopback unless you mean otherwise", "127.0.0.1")
    .option("--shadow", "decide, limit and audit, deliver nothing")
    .option("--flush-every <seconds>", "deliver pending messages this often", "30")
    .option(
      "--human-replies",
      "in the workspace at /queue, people may write their own reply to an item's recipient (mined later with mine --audit)",
    )
    .action(async (options) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535)
        throw new CliError(`--port ${options.port}: give 0 to 65535`);
      const flushEvery = Number(options.flushEvery);
      if (!Number.isFinite(flushEvery) || flushEvery < 1)
        throw new CliError("--flush-every: give seconds, at least 1");
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      try {
        await serveRelay(
          {
            catalog: options.catalog,
            db: options.db,
            port,
            host: options.host,
            shadow: options.shadow === true,
            flushEvery,
            humanReplies: options.humanReplies === true,
          },
          io,
          env,
          stop.signal,
        );
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    });
}
