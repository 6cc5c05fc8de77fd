/**
 * Nothing a caller wrote comes back: every request shape of every route in the relay's OpenAPI
 * document is sent with a canary in one place (see canary-probes.ts), and the canary must not be in the
 * answer (status, headers, body), in any line the relay logged, in any access audit event, or in the
 * metrics. The only exceptions are values the relay stores and shows to operators on purpose, each named
 * below: the token's subject in the fields that name it, and what an operator wrote on an item.
 */
import { describe, expect, it } from "vitest";
import type { RelayLogger } from "../../src/relay/index.js";
import type { AuditEvent } from "../../src/store/store.js";
import { propertyTicket, proposal } from "../fixtures/property.js";
import { type Document, type Probe, probesOf } from "./canary-probes.js";
import { auditOf, call, type RelayRig, signedElsewhere, useRelay } from "./harness.js";

const logged: string[] = [];
const logger: RelayLogger = {
  info: (fields, message) => logged.push(JSON.stringify({ ...fields, message })),
  warn: (fields, message) => logged.push(JSON.stringify({ ...fields, message })),
  error: (fields, message) => logged.push(JSON.stringify({ ...fields, message })),
};

// The records of every ticket are the same fixture, whatever its id: a canary in a ticket id must not
// come back through the records a loader built from it.
const fixed = propertyTicket("T-fixed");
const load = (ticketId: string) => ({ ...structuredClone(fixed), ticketId });

/** Fields that name the token's subject (a validated name the relay logs and audits on purpose). */
const subjectFields = new Set(["ticketId", "runId", "operator"]);
/** Fields of a queue item an operator wrote (or that name them): stored, and shown back to operators. */
const operatorWrites = new Set(["claimedBy", "closedBy", "resolution", "closeNote"]);

/** `value` as JSON without the fields in `allowed`, at any depth. */
function without(value: unknown, allowed: ReadonlySet<string>): string {
  return JSON.stringify(value, (key, item) => (allowed.has(key) ? undefined : item));
}

const contains = (text: string, canary: string) => text.toLowerCase().includes(canary.toLowerCase());

let serial = 0;
const run = Math.random().toString(36).slice(2, 8);
const canary = () => `Cnry${run}${(serial++).toString(36)}Q`;

async function openItems(rig: RelayRig, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const ticketId = `T-open-${index}`;
    const token = await rig.relay.mintTaskToken({ ticketId, runId: "run-open" });
    const output = index % 2 === 0 ? proposal("T-fixed", "payment_release") : { escalate: "needs_human" };
    await call(rig.url, "/v1/proposals", { token, json: { output } });
  }
  const operator = await rig.relay.mintOperatorToken({ operator: "ana@example.com" });
  const page = await call(rig.url, "/v1/queue?limit=500", { token: operator });
  for (const item of page.body.items as { id: string }[]) ids.push(item.id);
  return ids;
}

/** What a probe left that holds its canary, or an empty list. */
async function leaks(rig: RelayRig, probe: Probe): Promise<string[]> {
  const before = new Set((await auditOf(rig.store, { type: "access" })).map((event) => event.id));
  logged.length = 0;
  const response = await fetch(`${rig.url}${probe.path}`, {
    method: probe.method,
    headers: probe.headers,
    ...(probe.body === undefined ? {} : { body: probe.body }),
  });
  const text = await response.text();
  const found: string[] = [];
  for (const [name, value] of response.headers)
    if (contains(`${name}: ${value}`, probe.canary)) found.push(`header ${name}`);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: searched as text.
  }
  // An operator's own writes come back in the item they changed; nothing comes back in a refusal.
  const shown = response.status < 300 ? without(body, operatorWrites) : text;
  if (contains(shown, probe.canary)) found.push(`answer ${response.status}: ${text.slice(0, 300)}`);
  const subject = probe.subject === undefined ? new Set<string>() : subjectFields;
  for (const line of logged) {
    if (contains(without(JSON.parse(line), subject), probe.canary)) found.push(`log line ${line}`);
  }
  const events = (await auditOf(rig.store, { type: "access" })).filter((event) => !before.has(event.id));
  for (const event of events) {
    const { ticketId: _t, runId: _r, ...rest } = event as AuditEvent;
    const kept = probe.subject === undefined ? event : rest;
    if (contains(without(kept, probe.subject === undefined ? new Set() : subjectFields), probe.canary))
      found.push(`access audit event ${JSON.stringify(event)}`);
  }
  return found;
}

describe("nothing the caller wrote comes back", () => {
  const setup = useRelay({
    relay: { logger, rateLimit: { max: 1_000_000, windowMs: 60_000 } },
    outbox: { load, maxPerRun: 1000 },
  });

  it("in any answer, log line, access audit event or metric, for every request shape of every route", async () => {
    const { rig } = setup;
    const document = (await call(rig.url, "/openapi.json")).body as Document;
    const items = await openItems(rig, 16);
    let next = 0;
    const tokens = {
      taskToken: await rig.relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" }),
      operatorToken: await rig.relay.mintOperatorToken({ operator: "ana@example.com" }),
    } as Record<string, string>;
    const probes = await probesOf(document, {
      token: (scheme) => tokens[scheme] ?? "",
      subjectToken: (scheme, name) =>
        scheme === "taskToken"
          ? rig.relay.mintTaskToken({ ticketId: name, runId: name })
          : rig.relay.mintOperatorToken({ operator: name }),
      pathValue: () => items[next++ % items.length] ?? "",
      openSample: proposal("T-fixed"),
      canary,
    });
    // Every operation of the document is probed, and in every part it declares.
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const operation of operations)
      expect(
        probes.some((probe) => probe.label.startsWith(`${operation}:`)),
        operation,
      ).toBe(true);
    expect(probes.length).toBeGreaterThan(200);

    const failures: string[] = [];
    for (const probe of probes) {
      for (const leak of await leaks(rig, probe)) failures.push(`${probe.label} → ${leak}`);
    }
    const metrics = await (await fetch(`${rig.url}/metrics`)).text();
    for (const probe of probes)
      if (contains(metrics, probe.canary)) failures.push(`${probe.label} → /metrics`);
    expect(failures).toEqual([]);
  });

  // relay.fetch mounted in another server may be handed any token as a method; Node's parser would not.
  it("nor in a method HTTP does not define, logged as other", async () => {
    const { rig } = setup;
    const marker = canary();
    logged.length = 0;
    for (const path of ["/healthz", `/${marker}`]) {
      const answer = await rig.relay.fetch(new Request(`http://relay.test${path}`, { method: marker }));
      expect(answer.status).toBe(404);
      expect(await answer.text()).not.toContain(marker);
    }
    expect(logged.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ method: "other", route: "unmatched", status: 404 }),
      expect.objectContaining({ method: "other", route: "unmatched", status: 404 }),
    ]);
    expect(logged.join("\n")).not.toContain(marker);
  });

  it("nor in a token the relay's key signed with claims formletter never mints", async () => {
    const { rig } = setup;
    const marker = canary();
    const token = await signedElsewhere(`${marker}\u0000`, `${marker}\u202e`);
    logged.length = 0;
    const answer = await call(rig.url, "/v1/queue", { token });
    expect(answer.status).toBe(401);
    expect(answer.text).not.toContain(marker);
    expect(logged.join("\n")).not.toContain(marker);
    expect(JSON.stringify(await auditOf(rig.store, { type: "access" }))).not.toContain(marker);
  });
});
