/**
 * What the outbox tests share: a fresh store per test (in memory, or a real SQLite file in the temp
 * directory), an outbox over it with the property-management catalog, a clock the test moves by hand.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import {
  type Catalog,
  createOutbox,
  memoryStore,
  memoryTransport,
  type Outbox,
  type OutboxOptions,
  type Store,
  type Transport,
} from "../../src/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import type { AuditEvent, AuditFilter } from "../../src/store/store.js";
import type { MemoryTransport } from "../../src/transport/index.js";
import { loadTicket, propertyCatalog } from "../fixtures/property.js";

export type StoreKind = "memory" | "sqlite";
export const storeKinds: readonly StoreKind[] = ["memory", "sqlite"];

/** 2 March 2026, 09:00:00 UTC: on a minute boundary. */
export const t0 = Date.UTC(2026, 2, 2, 9, 0, 0);
export const minuteMs = 60_000;
export const dayMs = 24 * 60 * minuteMs;

/** A clock a test sets by hand. */
export interface ManualClock {
  (): number;
  set(at: number): void;
  advance(ms: number): void;
}

export function manualClock(start = t0): ManualClock {
  let now = start;
  const clock = (() => now) as ManualClock;
  clock.set = (at) => {
    now = at;
  };
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

/**
 * Registers a fresh store of `kind` for each test of the surrounding describe block and closes it
 * (and deletes its file) afterwards.
 */
export function useStore(kind: StoreKind): { readonly store: Store } {
  let current: Store | undefined;
  let dir: string | undefined;
  beforeEach(() => {
    if (kind === "sqlite") {
      dir = mkdtempSync(join(tmpdir(), "formletter-outbox-"));
      current = sqliteStore(join(dir, "outbox.db"));
    } else {
      current = memoryStore();
    }
  });
  afterEach(async () => {
    await current?.close().catch(() => undefined);
    current = undefined;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return {
    get store(): Store {
      if (current === undefined) throw new Error("useStore: no store outside a test");
      return current;
    },
  };
}

type Schemas = typeof propertyCatalog extends Catalog<infer S> ? S : never;
type PropertyOptions = OutboxOptions<Schemas>;

/** An outbox over `store` with the fixture catalog, a memory transport and retries without waits. */
export function outboxOver(
  store: Store,
  options: Partial<Omit<PropertyOptions, "store">> & { transport?: Transport } = {},
): { outbox: Outbox; transport: MemoryTransport; clock: ManualClock } {
  const { transport: given, ...rest } = options;
  const transport = memoryTransport();
  const clock = manualClock();
  const outbox = createOutbox({
    catalog: propertyCatalog,
    load: loadTicket,
    store,
    transports: { email: given ?? transport },
    retry: { attempts: 3, baseDelayMs: 0 },
    clock,
    ...rest,
  });
  return { outbox, transport, clock };
}

export async function auditOf(
  outbox: Outbox,
  filter: Omit<AuditFilter, "since" | "until"> & { since?: Date | number; until?: Date | number } = {},
): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  for await (const event of outbox.audit.query(filter)) events.push(event);
  return events;
}

/** Resolves with the error a promise rejects with; fails if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}
