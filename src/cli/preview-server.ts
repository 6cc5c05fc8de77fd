import { randomBytes } from "node:crypto";
import { type FSWatcher, watch } from "node:fs";
import { basename, dirname } from "node:path";
import { Hono } from "hono";
import type { Catalog } from "../core/decision/catalog.js";
import { startServer } from "../relay/server.js";
import { loadCatalog } from "./load-catalog.js";
import { selectedTicket } from "./preview-model.js";
import { pagePolicy, renderPreviewPage } from "./preview-page.js";
import type { SampleTickets } from "./preview-tickets.js";

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
}

/** The running preview server. */
export interface PreviewServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves the review page on 127.0.0.1 and reloads the catalog module when its file changes; the page
 * polls `/version` and reloads itself. Only requests naming this host and port are answered, so a web
 * page elsewhere cannot read the tickets through a rebound DNS name.
 */
export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const first = await loadCatalog(options.file, options.exportName);
  let catalog: Catalog = first.catalog;
  let generation = 0;
  let warning: string | undefined;
  const version = () => `${generation}:${catalog.version}`;

  let reloading: Promise<void> = Promise.resolve();
  const reload = () => {
    reloading = reloading.then(async () => {
      try {
        catalog = (await loadCatalog(options.file, options.exportName, { fresh: true })).catalog;
        warning = undefined;
        generation += 1;
        options.onReload?.({ ok: true, version: catalog.version });
      } catch (error) {
        warning = `the catalog module failed to load, showing the last good one: ${error instanceof Error ? error.message : String(error)}`;
        generation += 1;
        options.onReload?.({ ok: false, problem: warning });
      }
    });
  };
  let timer: NodeJS.Timeout | undefined;
  // Editors save by writing, renaming or replacing: watch the folder and filter by name.
  const watcher: FSWatcher = watch(dirname(first.file), (_event, name) => {
    if (name !== null && name.toString() !== basename(first.file)) return;
    clearTimeout(timer);
    timer = setTimeout(reload, 80);
  });

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
  app.get("/", (context) => {
    const requested = Number(context.req.query("ticket") ?? "0");
    const index = Number.isSafeInteger(requested) ? requested : 0;
    const query = context.req.query("q")?.slice(0, 200);
    const mode = {
      kind: "served",
      nonce: randomBytes(16).toString("base64"),
      version: version(),
      query,
    } as const;
    const html = renderPreviewPage({
      title: `Catalog preview: ${basename(first.file)}`,
      catalog,
      tickets: options.tickets.ids,
      selected: selectedTicket(catalog, options.tickets, index, options.limit),
      warning,
      mode,
      link: (ticket) => `/?ticket=${ticket}`,
    });
    context.header("Content-Security-Policy", pagePolicy(mode));
    return context.html(html);
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
      clearTimeout(timer);
      watcher.close();
      await reloading;
      await server.close(1000);
    },
  };
}
