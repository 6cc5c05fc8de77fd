import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { resendEvents } from "../../../src/providers/events/resend.js";
import type { Verified } from "../../../src/providers/events/verifier.js";
import { eventRequest, now } from "./request.js";

const secret = `whsec_${Buffer.from("a signing secret of thirty-two b").toString("base64")}`;
const otherSecret = `whsec_${Buffer.from("another secret of thirty-two byt").toString("base64")}`;

const payload = (type: string, data: object = {}) =>
  JSON.stringify({
    type,
    created_at: "2026-03-02T08:59:00.000Z",
    data: { email_id: "4ef9a417-02e9-4d39", ...data },
  });

/** Signed with the Standard Webhooks library, as Resend (through Svix) signs. */
function signed(
  body: string,
  options: { key?: string; at?: number; id?: string; prefix?: "webhook" | "svix" } = {},
) {
  const id = options.id ?? "msg_2b9Zd";
  const at = new Date(options.at ?? now);
  const signature = new Webhook(options.key ?? secret).sign(id, at, body);
  const prefix = options.prefix ?? "svix";
  return eventRequest(body, {
    [`${prefix}-id`]: id,
    [`${prefix}-timestamp`]: String(Math.floor(at.getTime() / 1000)),
    [`${prefix}-signature`]: signature,
  });
}

describe("resendEvents (Standard Webhooks)", () => {
  const verifier = resendEvents({ secret });

  it.each(["svix", "webhook"] as const)(
    "accepts a request signed by the official library, with %s- headers",
    async (prefix) => {
      const result = await verifier.verify(signed(payload("email.delivered"), { prefix }), now);
      expect(result).toEqual({
        ok: true,
        ignored: 0,
        events: [
          {
            provider: "resend",
            eventId: "msg_2b9Zd",
            messageId: "4ef9a417-02e9-4d39",
            status: "delivered",
            at: Date.parse("2026-03-02T08:59:00.000Z"),
          },
        ],
      });
    },
  );

  it("reads a permanent bounce as hard, a transient one as soft, a complaint and a failure; ignores opens", async () => {
    const read = async (body: string) =>
      (await verifier.verify(signed(body), now)) as Extract<Verified, { ok: true }>;
    expect(
      (await read(payload("email.bounced", { bounce: { type: "Permanent", subType: "General" } }))).events,
    ).toMatchObject([{ status: "bounced", bounce: "hard", code: "General" }]);
    expect((await read(payload("email.bounced", { bounce: { type: "Transient" } }))).events).toMatchObject([
      { status: "bounced", bounce: "soft" },
    ]);
    expect((await read(payload("email.complained"))).events).toMatchObject([{ status: "complained" }]);
    expect((await read(payload("email.failed"))).events).toMatchObject([{ status: "failed" }]);
    expect(await read(payload("email.opened"))).toMatchObject({ events: [], ignored: 1 });
  });

  it("refuses a tampered body, another key, an old or future timestamp, and a missing header", async () => {
    const body = payload("email.bounced", { bounce: { type: "Permanent" } });
    const good = signed(body);
    const tampered = { ...good, body: new TextEncoder().encode(body.replace("Permanent", "Transient")) };
    const refused = { ok: false, refusal: "signature" };
    expect(await verifier.verify(tampered, now)).toEqual(refused);
    expect(await verifier.verify(signed(body, { key: otherSecret }), now)).toEqual(refused);
    expect(await verifier.verify(signed(body, { at: now - 301_000 }), now)).toEqual(refused);
    expect(await verifier.verify(signed(body, { at: now + 301_000 }), now)).toEqual(refused);
    for (const header of ["svix-id", "svix-timestamp", "svix-signature"]) {
      const headers = new Headers(good.headers);
      headers.delete(header);
      expect(await verifier.verify({ ...good, headers }, now)).toEqual(refused);
    }
    // The signature of another message id does not carry over to this one.
    const headers = new Headers(good.headers);
    headers.set("svix-id", "msg_other");
    expect(await verifier.verify({ ...good, headers }, now)).toEqual(refused);
  });

  it("refuses a signed body of the wrong shape as malformed, and a bad secret at start-up", async () => {
    expect(await verifier.verify(signed(JSON.stringify({ type: "email.delivered", data: {} })), now)).toEqual(
      {
        ok: false,
        refusal: "malformed",
      },
    );
    expect(() => resendEvents({ secret: "not-a-secret" })).toThrow(/whsec_/);
  });
});
