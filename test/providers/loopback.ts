import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

/** One request as the fake provider received it. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * How the fake answers: a status, a raw body and headers; `hang` never answers (a timeout); `reset`
 * closes the connection once the request has arrived, as a dying proxy would.
 */
export type Reply =
  | { readonly status: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> }
  | "hang"
  | "reset";

/** A JSON answer, with headers beside the content type. */
export function json(status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): Reply {
  return { status, body: JSON.stringify(value), headers };
}

/** An HTTP server on 127.0.0.1 that records each request and answers with `reply(request)`. */
export interface Loopback {
  readonly port: number;
  readonly received: ReceivedRequest[];
  reply: (request: ReceivedRequest) => Reply;
  close(): Promise<void>;
}

export async function startLoopback(): Promise<Loopback> {
  const hanging: ServerResponse[] = [];
  const loopback = {
    port: 0,
    received: [] as ReceivedRequest[],
    reply: (_request: ReceivedRequest): Reply => ({ status: 500, body: "no reply set" }),
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const received: ReceivedRequest = {
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      loopback.received.push(received);
      const reply = loopback.reply(received);
      if (reply === "reset") {
        response.socket?.destroy();
        return;
      }
      if (reply === "hang") {
        hanging.push(response);
        return;
      }
      response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      response.end(reply.body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  loopback.port = (server.address() as AddressInfo).port;
  return loopback;
}

/**
 * A loopback for one test file: started before its tests, closed after them, its requests cleared and
 * its answer reset to `standard` before each test.
 */
export function useLoopback(standard: Reply): () => Loopback {
  let loopback: Loopback | undefined;
  beforeAll(async () => {
    loopback = await startLoopback();
  });
  afterAll(() => loopback?.close());
  beforeEach(() => {
    if (loopback === undefined) return;
    loopback.received.length = 0;
    loopback.reply = () => standard;
  });
  return () => {
    if (loopback === undefined) throw new Error("the loopback is used outside a test");
    return loopback;
  };
}
