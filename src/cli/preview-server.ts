import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { Hono } from "hono";
import { startServer } from "../relay/server.js";
import { CliError } from "./output.js";
import { type CatalogVersion, loadCatalogVersion } from "./preview-catalog.js";
import { pagePolicy } from "./preview-page.js";
import type { SampleTickets } from "./preview-tickets.js";
import { watchFiles } from "./watch-files.js";

/** What the served preview shows. */
export interface PreviewServerOptions {
  /** The catalog module; watched, and loaded again when it changes. */
  readonly file: string;
  readonly exportName?: string;
  readonly tickets: SampleTickets;
  /** Most combinations decided per template. */
  readonly limit: number;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  readonly port: number;
  /** Told of each reload, with its outcome. */
  readonly onReload?: (outcome: { ok: true; version: string } | { ok: false; problem: string }) => void;
  /** How long a version may take to load (default 60 s) and to render a page (default 20 s). */
  readonly limits?: { readonly loadMs?: number; readonly renderMs?: number };
}

/** The running preview server. */
export interface PreviewServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves the review page on 127.0.0.1 and loads the catalog again when a file of its module graph changes
 * (the module and every local file it imports); the page polls `/version` and reloads itself. Each
 * version is loaded and rendered in a worker of its own, so what is shown is what is on disk: a module
 * that fails to load leaves the last good version shown, with the failure above it. Only requests
 * naming this host and port are answered, so a web page elsewhere cannot read the tickets through a
 * rebound DNS name.
 */
export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const setup = {
    file: options.file,
    exportName: options.exportName,
    tickets: options.tickets,
    limit: options.limit,
  };
  let generation = 0;
  let warning: string | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let reloading: Promise<void> = Promise.resolve();
  const limits = {
    loadMs: options.limits?.loadMs ?? 60_000,
    // Under the server's 30 s request timeout, so a page that hangs is answered with why.
    renderMs: options.limits?.renderMs ?? 20_000,
    // A worker that stops on its own (its code threw later, or hung on a page) is replaced at once.
    onStop: (problem: string) => {
      warning = `${problem}; loading the catalog again`;
      generation += 1;
      options.onReload?.({ ok: false, problem: warning });
      reload();
    },
  };
  const first = await loadCatalogVersion(setup, limits);
  if (!first.ok) throw new CliError(first.problem);
  let current: CatalogVersion = first.loaded;
  const version = () => `${generation}:${current.version}`;
  // The module is also watched by the path given: a symbolic link pointed at another file is a change.
  const watched = (files: readonly string[]) => [resolve(options.file), ...files];
  const watch = watchFiles(() => {
    clearTimeout(timer);
    timer = setTimeout(reload, 80);
  });
  watch.set(watched(current.files));

  function reload() {
    reloading = reloading.then(async () => {
      if (closed) return;
      const next = await loadCatalogVersion(setup, limits);
      if (closed) {
        if (next.ok) next.loaded.retire();
        return;
      }
      generation += 1;
      if (next.ok) {
        current.retire();
        current = next.loaded;
        warning = undefined;
        watch.set(watched(current.files));
        options.onReload?.({ ok: true, version: current.version });
      } else {
        // Keep watching what the good version read and what the failed load got to: fixing either reloads.
        watch.set(watched([...current.files, ...next.files]));
        warning = `the catalog module failed to load, showing the last good one: ${next.problem}`;
        options.onReload?.({ ok: false, problem: warning });
      }
    });
  }

  /** One version renders the page and names it: the text and the version shown always agree. */
  const page = (index: number, query: string | undefined) => {
    const mode = {
      kind: "served",
      nonce: randomBytes(16).toString("base64"),
      version: version(),
      query,
    } as const;
    return current.render({ index, mode, warning }).then((html) => ({ html, policy: pagePolicy(mode) }));
  };

  let allowedHosts: Set<string> = new Set();
  const app = new Hono();
  app.use("*", async (context, next) => {
    if (!allowedHosts.has(context.req.header("host") ?? "")) return context.text("unknown host", 421);
    await next();
    context.header("X-Content-Type-Options", "nosniff");
    context.header("Referrer-Policy", "no-referrer");
    context.header("Cache-Control", "no-store");
    return undefined;
  });
  app.get("/version", (context) => context.text(version()));
  app.get("/", async (context) => {
    const requested = Number(context.req.query("ticket") ?? "0");
    const index = Number.isSafeInteger(requested) ? requested : 0;
    const query = context.req.query("q")?.slice(0, 200);
    try {
      // A worker that stopped is being replaced: wait for its successor once before answering why.
      const shown = await page(index, query).catch(async (error: unknown) => {
        const stopped = current;
        await reloading;
        if (current === stopped) throw error;
        return page(index, query);
      });
      context.header("Content-Security-Policy", shown.policy);
      return context.html(shown.html);
    } catch (error) {
      return context.text(
        `formletter preview: ${error instanceof Error ? error.message : String(error)}`,
        503,
      );
    }
  });
  app.notFound((context) => context.text("not found", 404));

  const server = await startServer(app.fetch, {
    port: options.port,
    host: "127.0.0.1",
    requestTimeoutMs: 30_000,
  });
  const { port } = server.address;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return {
    url: server.address.url,
    async close() {
      closed = true;
      clearTimeout(timer);
      watch.close();
      await reloading;
      current.retire();
      await server.close(1000);
    },
  };
}
