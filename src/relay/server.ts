import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { problem } from "./http.js";

/**
 * Where a relay listens.
 *
 * @example
 * import { createRelay } from "formletter/relay";
 * await createRelay(options).listen({ port: 0, host: "127.0.0.1" }); // a free port, loopback only
 */
export interface ListenOptions {
  /** The TCP port; 0 picks a free one. @default 8787 */
  readonly port?: number;
  /**
   * The interface to bind. Loopback by default: the agent runs on the same host, and nothing else should
   * reach the relay. Bind another address only behind a TLS-terminating proxy. @default "127.0.0.1"
   */
  readonly host?: string;
}

/**
 * Where the relay is listening.
 *
 * @example
 * import { createRelay } from "formletter/relay";
 * const { url, port } = await createRelay(options).listen({ port: 0 }); // "http://127.0.0.1:41233"
 */
export interface RelayAddress {
  /** The base URL, e.g. "http://127.0.0.1:8787". */
  readonly url: string;
  readonly host: string;
  readonly port: number;
}

/** A listening HTTP server and how to stop it. */
export interface RunningServer {
  readonly address: RelayAddress;
  /** Stops accepting, lets requests in progress finish (up to `graceMs`), then closes every connection. */
  close(graceMs: number): Promise<void>;
}

/**
 * Node's limits on a slow client, from the relay's request timeout. Node checks them only every
 * `connectionsCheckingInterval` (30 s by default), so a client trickling its headers a byte at a time
 * would hold the connection for up to 30 s whatever the timeout: the check runs a few times per timeout
 * instead (at most once a second, at least every 100 ms).
 */
function serverTimeouts(requestTimeoutMs: number) {
  const headersTimeout = Math.min(requestTimeoutMs, 10_000);
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout,
    connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(headersTimeout / 4))),
  };
}

/**
 * Serves `fetch` on Node's HTTP server through @hono/node-server. Node's own timeouts bound how long a
 * client may take to send its headers and its whole request, so a slow client cannot hold a connection.
 */
export async function startServer(
  fetch: (request: Request) => Response | Promise<Response>,
  options: ListenOptions & { readonly requestTimeoutMs: number },
): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  // Whatever escapes the app is answered here, so the adapter never prints an error or sends its text.
  const guarded = async (request: Request): Promise<Response> => {
    try {
      return await fetch(request);
    } catch {
      return problem(500, { code: "internal" });
    }
  };
  // The process's global Request and Response stay as they are: a relay started inside an application
  // must not swap them under it (the adapter would, for speed; measured, it changes nothing here).
  const server = createAdaptorServer({
    fetch: guarded,
    hostname: host,
    overrideGlobalObjects: false,
    serverOptions: serverTimeouts(options.requestTimeoutMs),
  }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    address: { url: `http://${urlHost}:${port}`, host, port },
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
