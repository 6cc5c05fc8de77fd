import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { twilioEvents } from "../../../src/providers/events/twilio.js";
import { eventRequest, eventsOf, now } from "./request.js";

const authToken = "12345678901234567890123456789012";
const url = "https://relay.example.com/v1/events/twilio";

const form = (params: Record<string, string>) => new URLSearchParams(params).toString();
const callback = (fields: Record<string, string> = {}) => ({
  AccountSid: "AC0123456789abcdef0123456789abcdef",
  MessageSid: "SM0123456789abcdef0123456789abcdef",
  MessageStatus: "delivered",
  To: "+4915112345678",
  ...fields,
});

/** Signed with the Twilio SDK's own function, over the public URL and the parameters. */
function signed(
  params: Record<string, string>,
  options: { token?: string; signedUrl?: string; query?: string } = {},
) {
  const signature = twilio.getExpectedTwilioSignature(
    options.token ?? authToken,
    `${options.signedUrl ?? url}${options.query ?? ""}`,
    params,
  );
  return eventRequest(
    form(params),
    { "x-twilio-signature": signature, "content-type": "application/x-www-form-urlencoded" },
    `http://10.0.0.7:8787/v1/events/twilio${options.query ?? ""}`,
  );
}

describe("twilioEvents (X-Twilio-Signature)", () => {
  const verifier = twilioEvents({ authToken, url });

  it("accepts a callback signed over the public URL, its query string included, though the relay sees another address", async () => {
    expect(await verifier.verify(signed(callback()), now)).toEqual({
      ok: true,
      ignored: 0,
      events: [
        {
          provider: "twilio",
          eventId: "SM0123456789abcdef0123456789abcdef:delivered",
          messageId: "SM0123456789abcdef0123456789abcdef",
          status: "delivered",
        },
      ],
    });
    expect(await verifier.verify(signed(callback(), { query: "?tenant=7" }), now)).toMatchObject({
      ok: true,
    });
  });

  it("reads unreachable numbers as hard bounces, an opt-out as a complaint, other failures as soft or failed; ignores sent", async () => {
    const read = async (fields: Record<string, string>) =>
      eventsOf(await verifier.verify(signed(callback(fields)), now));
    expect(await read({ MessageStatus: "undelivered", ErrorCode: "30005" })).toMatchObject([
      { status: "bounced", bounce: "hard", code: "30005" },
    ]);
    expect(await read({ MessageStatus: "failed", ErrorCode: "21610" })).toMatchObject([
      { status: "complained" },
    ]);
    expect(await read({ MessageStatus: "undelivered", ErrorCode: "30003" })).toMatchObject([
      { status: "bounced", bounce: "soft" },
    ]);
    expect(await read({ MessageStatus: "failed", ErrorCode: "30001" })).toMatchObject([{ status: "failed" }]);
    expect(await read({ MessageStatus: "sent" })).toEqual([]);
  });

  it("refuses a tampered parameter, another token, another URL and a missing signature", async () => {
    const refused = { ok: false, refusal: "signature" };
    const good = signed(callback({ MessageStatus: "undelivered", ErrorCode: "30005" }));
    const tampered = {
      ...good,
      body: new TextEncoder().encode(form(callback({ MessageStatus: "undelivered", ErrorCode: "30003" }))),
    };
    expect(await verifier.verify(tampered, now)).toEqual(refused);
    expect(
      await verifier.verify(signed(callback(), { token: "98765432109876543210987654321098" }), now),
    ).toEqual(refused);
    expect(
      await verifier.verify(
        signed(callback(), { signedUrl: "https://elsewhere.example/v1/events/twilio" }),
        now,
      ),
    ).toEqual(refused);
    const headers = new Headers(good.headers);
    headers.delete("x-twilio-signature");
    expect(await verifier.verify({ ...good, headers }, now)).toEqual(refused);
    // An added parameter changes what was signed.
    const added = { ...good, body: new TextEncoder().encode(`${form(callback())}&Extra=1`) };
    expect(await verifier.verify(added, now)).toEqual(refused);
  });

  it("refuses a signed callback without a message SID as malformed, and a relative URL at start-up", async () => {
    const { MessageSid: _, ...rest } = callback();
    expect(await verifier.verify(signed(rest), now)).toEqual({ ok: false, refusal: "malformed" });
    expect(() => twilioEvents({ authToken, url: "/v1/events/twilio" })).toThrow(/absolute public URL/);
  });
});
