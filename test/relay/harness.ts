/**
 * What the relay tests share: a real relay on port 0 over an outbox on a real SQLite file, the
 * property-management catalog, and small HTTP helpers that read the answer and the audit log.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT } from "jose";
import { afterEach, beforeEach } from "vitest";
import {
  createOutbox,
  memoryTransport,
  type Outbox,
  type OutboxOptions,
  type Store,
} from "../../src/index.js";
import { createRelay, operatorAudience, type Relay, type RelayOptions } from "../../src/relay/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import type { AuditEvent, AuditFilter } from "../../src/store/store.js";
import type { MemoryTransport } from "../../src/transport/index.js";
import { loadTicket, propertyCatalog } from "../fixtures/property.js";
import { replyProblem } from "./contract.js";

export const agentSecret = "agent-secret-0123456789-abcdefghijklmnop";
export const operatorSecret = "operator-secret-0123456789-abcdefghijklm";

/** A running relay and everything behind it. */
export interface RelayRig {
  readonly relay: Relay;
  readonly outbox: Outbox;
  readonly store: Store;
  readonly transport: MemoryTransport;
  readonly url: string;
  readonly file: string;
}

export interface RigOptions {
  /** Whether the relay gets an operator secret (and so serves the operator endpoints). @default true */
  readonly operator?: boolean;
  readonly relay?: Partial<Omit<RelayOptions, "outbox" | "catalog" | "store">>;
  readonly outbox?: Partial<Pick<OutboxOptions<never>, "maxPerRun" | "load" | "clock" | "contactKey">>;
}

/** Starts a relay for each test of the surrounding block and stops it (and deletes its file) after. */
export function useRelay(options: RigOptions = {}): { readonly rig: RelayRig } {
  let current: RelayRig | undefined;
  let dir: string | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "formletter-relay-"));
    const file = join(dir, "relay.db");
    const store = sqliteStore(file);
    const transport = memoryTransport();
    const load = options.outbox?.load ?? loadTicket;
    const outbox = createOutbox({
      catalog: propertyCatalog,
      load,
      store,
      transports: { email: transport },
      ...(options.outbox?.maxPerRun === undefined ? {} : { maxPerRun: options.outbox.maxPerRun }),
      ...(options.outbox?.clock === undefined ? {} : { clock: options.outbox.clock }),
      ...(options.outbox?.contactKey === undefined ? {} : { contactKey: options.outbox.contactKey }),
    });
    const relay = createRelay({
      outbox,
      secret: agentSecret,
      ...(options.operator === false ? {} : { operatorSecret }),
      ...options.relay,
    });
    const { url } = await relay.listen({ port: 0 });
    current = { relay, outbox, store, transport, url, file };
  });
  afterEach(async () => {
    await current?.relay.close();
    await current?.outbox.close();
    current = undefined;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get rig(): RelayRig {
      if (current === undefined) throw new Error("useRelay: no relay outside a test");
      return current;
    },
  };
}

/** An answer: status, headers and the body, parsed when it is JSON. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field in assertions; a type per endpoint would only restate them.
  readonly body: any;
}

type RequestBody = NonNullable<Parameters<typeof fetch>[1]>["body"];

/**
 * Sends a request to the relay and reads the whole answer, then checks the answer against the relay's
 * OpenAPI document (path, method, status, content type and body schema): a reply the document does not
 * describe fails the test. `undocumented: true` is for requests meant to miss every endpoint: the
 * document must not list them, and the answer must be the documented error body.
 */
export async function call(
  url: string,
  path: string,
  init: {
    method?: string;
    token?: string;
    json?: unknown;
    body?: RequestBody;
    headers?: Record<string, string>;
    undocumented?: boolean;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["content-type"] ??= "application/json";
  }
  const method = init.method ?? (body === undefined ? "GET" : "POST");
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body, duplex: "half" }),
  } as RequestInit);
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const answer = { status: response.status, headers: response.headers, text, body: parsed };
  const problem = await replyProblem(url, method, path, answer, init.undocumented);
  if (problem !== undefined) throw new Error(`contract: ${problem}`);
  return answer;
}

/** The audit events of the store, oldest first. */
export async function auditOf(store: Store, filter: AuditFilter = {}): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  for await (const event of store.queryAudit(filter)) events.push(event);
  return events;
}

/**
 * An operator token for `operator`, signed with the relay's operator secret by someone other than
 * formletter's minters (which refuse a name they would not record).
 */
export function signedElsewhere(operator: string, jti = "signed-elsewhere"): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(operator)
    .setAudience(operatorAudience)
    .setIssuer("formletter")
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .setJti(jti)
    .sign(new TextEncoder().encode(operatorSecret));
}
