import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRelay } from "../../src/relay/index.js";
import { createQueueNotifier } from "../../src/workspace/queue-notifier.js";
import { agentSecret, canary, operatorSecret, populate, useWorkspace } from "./rig.js";

const secret = `whsec_${randomBytes(32).toString("base64")}`;
let now = Date.now();

interface Received {
  readonly body: string;
  readonly verified: unknown;
  readonly id: string;
}

/** A receiver on loopback that verifies each POST with the `standardwebhooks` package, answering `statuses` in turn (then 204). */
let server: Server;
let url: string;
let received: Received[];
let statuses: number[];
let attempts: number;
let attemptIds: string[];

interface Batch {
  readonly type: string;
  readonly data: { readonly arrived: Counted; readonly pastServiceLevel: Counted; readonly waiting: number };
}
interface Counted {
  readonly count: number;
  readonly ids: readonly string[];
}

/** The verified payload of the `n`th delivered POST. */
function batch(n: number): Batch {
  const found = received[n];
  if (found === undefined) throw new Error(`no POST number ${n} was received`);
  return found.verified as Batch;
}
beforeEach(async () => {
  received = [];
  statuses = [];
  attempts = 0;
  attemptIds = [];
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      attempts++;
      attemptIds.push(String(request.headers["webhook-id"]));
      const body = Buffer.concat(chunks).toString("utf8");
      const status = statuses.shift() ?? 204;
      if (status < 300) {
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        );
        received.push({
          body,
          verified: new Webhook(secret).verify(body, headers),
          id: headers["webhook-id"] ?? "",
        });
      }
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterEach(() => new Promise<void>((done) => server.close(() => done())));

describe("queue notifications", () => {
  const setup = useWorkspace({ clock: () => now });
  const notifier = (options: { everyMs?: number; retryDelaysMs?: number[] } = {}) =>
    createQueueNotifier(setup.rig.outbox.queue, {
      url,
      secret,
      serviceLevelMs: 3_600_000,
      clock: () => now,
      retryDelaysMs: options.retryDelaysMs ?? [0, 0],
      sleep: async () => undefined,
      ...(options.everyMs === undefined ? {} : { everyMs: options.everyMs }),
    });

  it("posts one signed batch of ids and counts for new arrivals, never a record value, and at most one per interval", async () => {
    const { rig } = setup;
    await populate(rig, "T-0");
    const notify = notifier({ everyMs: 60_000 });
    // The first check learns what already waits: nothing is posted for it.
    expect(await notify.check()).toMatchObject({ sent: false, why: "nothing_new" });
    await populate(rig, "T-1");
    now += 1_000;
    expect(await notify.check()).toMatchObject({ sent: true, attempts: 1 });
    expect(received).toHaveLength(1);
    const first = batch(0);
    expect(first.type).toBe("queue.changed");
    expect(first.data.arrived).toEqual({ count: 2, ids: ["3", "4"] });
    expect(first.data.pastServiceLevel).toEqual({ count: 0, ids: [] });
    expect(received[0]?.body).not.toContain("Ada");
    expect(received[0]?.body).not.toContain("upset");
    expect(received[0]?.body).not.toContain(canary);
    // More arrive within the interval: nothing is posted until it has passed, then once, for both.
    await populate(rig, "T-2");
    now += 30_000;
    expect(await notify.check()).toMatchObject({ sent: false, why: "rate_limited" });
    await populate(rig, "T-3");
    now += 30_000;
    expect(await notify.check()).toMatchObject({ sent: true });
    expect(received).toHaveLength(2);
    expect(batch(1).data.arrived.count).toBe(4);
    now += 60_000;
    expect(await notify.check()).toMatchObject({ sent: false, why: "nothing_new" });
  });

  it("posts once when items pass the service level", async () => {
    const { rig } = setup;
    const notify = notifier();
    await notify.check();
    await populate(rig, "T-1");
    now += 61_000;
    await notify.check();
    now += 3_600_000;
    expect(await notify.check()).toMatchObject({ sent: true });
    const late = batch(1);
    expect(late.data.arrived.count).toBe(0);
    expect(late.data.pastServiceLevel.count).toBe(2);
    now += 3_600_000;
    expect(await notify.check()).toMatchObject({ sent: false, why: "nothing_new" });
  });

  it("retries a failing receiver a bounded number of times with one id, and tells the batch again later", async () => {
    const { rig } = setup;
    const notify = notifier({ retryDelaysMs: [0, 0] });
    await notify.check();
    await populate(rig, "T-1");
    now += 61_000;
    statuses = [503, 500, 502, 503];
    expect(await notify.check()).toEqual({ sent: false, why: "failed", attempts: 3 });
    expect(attempts).toBe(3);
    // Every retry carries the same webhook-id: a receiver that got one deduplicates the others.
    expect(new Set(attemptIds).size).toBe(1);
    now += 61_000;
    statuses = [429];
    expect(await notify.check()).toMatchObject({ sent: true, attempts: 2 });
    expect(batch(0).data.arrived.count).toBe(2);
    // A refusal that a retry cannot change is not retried.
    await populate(rig, "T-2");
    now += 61_000;
    statuses = [400];
    const before = attempts;
    expect(await notify.check()).toMatchObject({ sent: false, why: "failed" });
    expect(attempts - before).toBe(1);
  });

  it.each([
    ["an http URL off loopback", { url: "http://hooks.example.com/q" }],
    ["credentials in the URL", { url: "https://user:pw@hooks.example.com/q" }],
    ["not a URL", { url: "hooks" }],
    ["a secret without whsec_", { secret: "plain-secret-0123456789-0123456789" }],
    ["an interval under a second", { everyMs: 10 }],
  ])("refuses %s when it is created, saying what to give", (_, bad) => {
    expect(() =>
      createQueueNotifier(setup.rig.outbox.queue, {
        url,
        secret,
        serviceLevelMs: 1,
        clock: () => now,
        ...bad,
      }),
    ).toThrow(/workspace\.notify\.\w+: give|secret must be/);
  });
});

describe("queue notifications from a relay's workspace", () => {
  const setup = useWorkspace({
    // Read when each test's relay is made, after the receiver above is listening.
    get notify() {
      return { url, secret, everyMs: 1000, retryDelaysMs: [] };
    },
  });

  it("posts a verified batch for items that arrive while it runs", async () => {
    const { rig } = setup;
    await populate(rig, "T-1");
    for (let wait = 0; wait < 200 && received.length === 0; wait++)
      await new Promise((done) => setTimeout(done, 25));
    expect(batch(0).data.arrived.count).toBe(2);
  });

  it("refuses a relay whose notification URL or secret is wrong, when it is created", () => {
    expect(() =>
      createRelay({
        outbox: setup.rig.outbox,
        secret: agentSecret,
        operatorSecret,
        workspace: { notify: { url: "http://hooks.example.com/q", secret } },
      }),
    ).toThrow(/workspace\.notify\.url/);
  });
});
