import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { memoryStore } from "../../../src/index.js";
import { createRelay, postmarkEvents, resendEvents } from "../../../src/relay/index.js";
import type { AuditEvent } from "../../../src/store/store.js";
import { refundOutbox } from "../../suppression/refund-outbox.js";
import { now } from "./request.js";

const secret = `whsec_${Buffer.from("a signing secret of thirty-two b").toString("base64")}`;
const base = "http://relay.test";

function setUp(maxBodyBytes = 65_536) {
  const store = memoryStore();
  const { outbox, send, transport } = refundOutbox(store, { at: now });
  const relay = createRelay({
    outbox,
    secret: "a task secret of at least thirty-two bytes!!",
    clock: () => now,
    maxBodyBytes,
    deliveryEvents: {
      resend: resendEvents({ secret }),
      postmark: postmarkEvents({ username: "hook", password: "a long webhook password" }),
    },
  });
  const audit = async (type: AuditEvent["type"]) => {
    const events: AuditEvent[] = [];
    for await (const event of store.queryAudit({ type })) events.push(event);
    return events;
  };
  return { relay, send, audit, transport };
}

function resendPost(provider: string, payload: object, options: { id?: string; sign?: boolean } = {}) {
  const body = JSON.stringify(payload);
  const id = options.id ?? "msg_1";
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.sign !== false) {
    headers["svix-id"] = id;
    headers["svix-timestamp"] = String(Math.floor(now / 1000));
    headers["svix-signature"] = new Webhook(secret).sign(id, new Date(now), body);
  }
  return new Request(`${base}/v1/events/${provider}`, { method: "POST", headers, body });
}

const bounced = (emailId: string) => ({
  type: "email.bounced",
  created_at: "2026-03-02T08:59:00.000Z",
  data: { email_id: emailId, bounce: { type: "Permanent" } },
});

describe("POST /v1/events/{provider}", () => {
  it("records a verified hard bounce against its message, counts a replay once, and the next decision to it escalates", async () => {
    const { relay, send, audit, transport } = setUp();
    const sent = await send("ana@shop.example");
    const receipt = sent.delivery?.receiptId as string;
    const first = await relay.fetch(resendPost("resend", bounced(receipt)));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: 1, recorded: 1, unmatched: 0, replayed: 0, ignored: 0 });
    const again = await relay.fetch(resendPost("resend", bounced(receipt)));
    expect(await again.json()).toMatchObject({ recorded: 0, replayed: 1 });
    const unknown = await relay.fetch(resendPost("resend", bounced("no-such-message"), { id: "msg_2" }));
    expect(await unknown.json()).toMatchObject({ unmatched: 1 });
    expect((await audit("delivery_status")).map((event) => [event.ticketId, event.data.matched])).toEqual([
      ["T-1", true],
      [undefined, false],
    ]);
    expect((await send("ana@shop.example")).decision).toMatchObject({ reason: "destination_suppressed" });
    expect(transport.sent).toHaveLength(1);
    const metrics = await relay.metrics();
    expect(metrics).toContain(
      'formletter_relay_delivery_events_total{provider="resend",status="bounced_hard",outcome="recorded"} 1',
    );
  });

  it("is in the relay's OpenAPI document, with its refusals", async () => {
    const { relay } = setUp();
    const document = (await (await relay.fetch(new Request(`${base}/openapi.json`))).json()) as {
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
    };
    const route = document.paths["/v1/events/{provider}"]?.post;
    expect(Object.keys(route?.responses ?? {}).sort()).toEqual([
      "200",
      "400",
      "401",
      "404",
      "413",
      "500",
      "503",
    ]);
  });

  it("answers 404 for a provider not configured or unknown, the same as a path that does not exist", async () => {
    const { relay } = setUp();
    for (const provider of ["sendgrid", "mailgun", "__proto__", "constructor", "toString"]) {
      const response = await relay.fetch(resendPost(provider, bounced("x")));
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: "not_found" } });
    }
  });

  it("refuses an unsigned or tampered request with 401 and records nothing", async () => {
    const { relay, audit } = setUp();
    const unsigned = await relay.fetch(resendPost("resend", bounced("m-1"), { sign: false }));
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ error: { code: "signature_invalid" } });
    const signed = resendPost("resend", bounced("m-1"));
    const tampered = new Request(signed, { body: JSON.stringify(bounced("m-2")) });
    expect((await relay.fetch(tampered)).status).toBe(401);
    const postmark = await relay.fetch(
      new Request(`${base}/v1/events/postmark`, {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from("hook:wrong password here!!").toString("base64")}` },
        body: JSON.stringify({ RecordType: "Bounce", ID: 1, Type: "HardBounce", MessageID: "m-1" }),
      }),
    );
    expect(postmark.status).toBe(401);
    expect(await audit("delivery_status")).toEqual([]);
  });

  it("refuses a body over the limit with 413, declared or streamed, and a signed body of the wrong shape with 400", async () => {
    const { relay } = setUp(1_024);
    const large = { ...bounced("m-1"), padding: "x".repeat(2_000) };
    expect((await relay.fetch(resendPost("resend", large))).status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode("x".repeat(512)));
        controller.close();
      },
    });
    const streamed = await relay.fetch(
      new Request(`${base}/v1/events/resend`, {
        method: "POST",
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    const wrong = await relay.fetch(resendPost("resend", { type: "email.bounced", data: {} }));
    expect(wrong.status).toBe(400);
  });
});
