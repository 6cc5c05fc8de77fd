import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { createRequire } from "node:module";
import { describe, expect, it, vi } from "vitest";
import { sendgridEvents } from "../../../src/providers/events/sendgrid.js";
import { eventRequest, now, nowSeconds } from "./request.js";

// SendGrid signs with ECDSA over P-256 and SHA-256, and shows the verification key as base64 of its
// SubjectPublicKeyInfo: made the same way here.
const pair = () => generateKeyPairSync("ec", { namedCurve: "prime256v1" });
const { privateKey, publicKey } = pair();
const other = pair();
const shown = (key: KeyObject) => key.export({ type: "spki", format: "der" }).toString("base64");

const batch = (events: object[]) => JSON.stringify(events);
const event = (fields: object) => ({
  email: "ana@shop.example",
  timestamp: nowSeconds - 30,
  sg_event_id: `ev-${Math.random().toString(36).slice(2)}`,
  sg_message_id: "14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0",
  ...fields,
});

/** The documented recipe: the signature is over the timestamp header followed by the raw body. */
function signed(body: string, options: { key?: KeyObject; timestamp?: number } = {}) {
  const timestamp = String(options.timestamp ?? nowSeconds);
  const signature = sign("sha256", Buffer.from(timestamp + body), options.key ?? privateKey).toString(
    "base64",
  );
  return eventRequest(body, {
    "x-twilio-email-event-webhook-signature": signature,
    "x-twilio-email-event-webhook-timestamp": timestamp,
  });
}

describe("sendgridEvents (signed event webhook, ECDSA)", () => {
  const verifier = sendgridEvents({ publicKey: shown(publicKey) });

  it("accepts a signed batch and reads each event, the message id being the part SendGrid returned", async () => {
    const body = batch([
      event({ event: "delivered", sg_event_id: "ev-1" }),
      event({ event: "bounce", type: "bounce", status: "5.1.1" }),
      event({ event: "bounce", type: "blocked" }),
      event({ event: "spamreport" }),
      event({ event: "dropped" }),
      event({ event: "open" }),
      event({ event: "deferred" }),
    ]);
    const result = await verifier.verify(signed(body), now);
    expect(result).toMatchObject({
      ok: true,
      ignored: 2,
      events: [
        {
          provider: "sendgrid",
          eventId: "ev-1",
          messageId: "14c5d75ce93",
          status: "delivered",
          at: (nowSeconds - 30) * 1000,
        },
        { status: "bounced", bounce: "hard", code: "5.1.1" },
        { status: "bounced", bounce: "soft" },
        { status: "complained" },
        { status: "failed" },
      ],
    });
  });

  it("accepts the key as PEM too", async () => {
    const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
    const result = await sendgridEvents({ publicKey: pem }).verify(
      signed(batch([event({ event: "delivered" })])),
      now,
    );
    expect(result.ok).toBe(true);
  });

  it("refuses a tampered body, another key, an old timestamp, a changed timestamp, a garbled signature and a missing header", async () => {
    const refused = { ok: false, refusal: "signature" };
    const body = batch([event({ event: "bounce", type: "bounce" })]);
    const good = signed(body);
    expect(
      await verifier.verify(
        { ...good, body: new TextEncoder().encode(body.replace('"bounce"}', '"blocked"}')) },
        now,
      ),
    ).toEqual(refused);
    expect(await verifier.verify(signed(body, { key: other.privateKey }), now)).toEqual(refused);
    expect(await verifier.verify(signed(body, { timestamp: nowSeconds - 301 }), now)).toEqual(refused);
    const moved = new Headers(good.headers);
    moved.set("x-twilio-email-event-webhook-timestamp", String(nowSeconds - 1));
    expect(await verifier.verify({ ...good, headers: moved }, now)).toEqual(refused);
    const garbled = new Headers(good.headers);
    garbled.set("x-twilio-email-event-webhook-signature", "bm90IGEgc2lnbmF0dXJl");
    expect(await verifier.verify({ ...good, headers: garbled }, now)).toEqual(refused);
    for (const name of ["x-twilio-email-event-webhook-signature", "x-twilio-email-event-webhook-timestamp"]) {
      const headers = new Headers(good.headers);
      headers.delete(name);
      expect(await verifier.verify({ ...good, headers }, now)).toEqual(refused);
    }
  });

  it("refuses a forged signature before the library's slow pure-JavaScript check runs, and runs it on a signature that holds", async () => {
    const { EventWebhook } = createRequire(import.meta.url)("@sendgrid/eventwebhook");
    const library = vi.spyOn(EventWebhook.prototype, "verifySignature");
    try {
      const body = batch([event({ event: "delivered" })]);
      const forged = signed(body, { key: other.privateKey });
      expect(await verifier.verify(forged, now)).toEqual({ ok: false, refusal: "signature" });
      expect(library).not.toHaveBeenCalled();
      expect((await verifier.verify(signed(body), now)).ok).toBe(true);
      expect(library).toHaveBeenCalledTimes(1);
    } finally {
      library.mockRestore();
    }
  });

  it("refuses a signed batch with an event without ids as malformed, and a key that is not one at start-up", async () => {
    expect(await verifier.verify(signed(batch([{ event: "delivered" }])), now)).toEqual({
      ok: false,
      refusal: "malformed",
    });
    expect(await verifier.verify(signed(JSON.stringify({ event: "delivered" })), now)).toEqual({
      ok: false,
      refusal: "malformed",
    });
    expect(() => sendgridEvents({ publicKey: "not a key!" })).toThrow(/verification key/);
  });
});
