import { describe, expect, it } from "vitest";
import { postmarkEvents } from "../../../src/providers/events/postmark.js";
import { eventRequest, eventsOf, now } from "./request.js";

const username = "postmark-hook";
const password = "a long webhook password";

/** Postmark calls a webhook URL https://user:pass@host/…, which it sends as HTTP basic auth. */
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
const request = (body: object, authorization: string | null = basic(username, password)) =>
  eventRequest(JSON.stringify(body), authorization === null ? {} : { authorization });

const bounce = (fields: object = {}) => ({
  RecordType: "Bounce",
  ID: 4323372036,
  Type: "HardBounce",
  TypeCode: 1,
  MessageID: "883953f4-6105-42a2-a16a-77a8eac79483",
  BouncedAt: "2026-03-02T08:58:00Z",
  ...fields,
});

describe("postmarkEvents (basic auth)", () => {
  const verifier = postmarkEvents({ username, password });

  it("accepts the webhook's credentials and reads a hard bounce, a soft one, a complaint and a delivery", async () => {
    const read = async (body: object) => eventsOf(await verifier.verify(request(body), now));
    expect(await read(bounce())).toEqual([
      {
        provider: "postmark",
        eventId: "Bounce:4323372036",
        messageId: "883953f4-6105-42a2-a16a-77a8eac79483",
        status: "bounced",
        bounce: "hard",
        code: "HardBounce",
        at: Date.parse("2026-03-02T08:58:00Z"),
      },
    ]);
    expect(await read(bounce({ Type: "Transient" }))).toMatchObject([{ bounce: "soft" }]);
    expect(await read(bounce({ Type: "SoftBounce", Inactive: true }))).toMatchObject([{ bounce: "hard" }]);
    expect(await read(bounce({ RecordType: "SpamComplaint", Type: "SpamComplaint" }))).toMatchObject([
      { status: "complained", eventId: "SpamComplaint:4323372036" },
    ]);
    expect(
      await read({ RecordType: "Delivery", MessageID: "883953f4", DeliveredAt: "2026-03-02T08:58:00Z" }),
    ).toMatchObject([{ status: "delivered", eventId: "delivery:883953f4" }]);
    expect(await verifier.verify(request({ RecordType: "Open", MessageID: "x" }), now)).toMatchObject({
      events: [],
      ignored: 1,
    });
  });

  it("refuses a wrong password, another user, another scheme and a missing header", async () => {
    const refused = { ok: false, refusal: "signature" };
    expect(
      await verifier.verify(request(bounce(), basic(username, "a wrong webhook password")), now),
    ).toEqual(refused);
    expect(await verifier.verify(request(bounce(), basic("someone", password)), now)).toEqual(refused);
    expect(await verifier.verify(request(bounce(), `Bearer ${password}`), now)).toEqual(refused);
    expect(await verifier.verify(request(bounce(), null), now)).toEqual(refused);
  });

  it("refuses a body of the wrong shape as malformed, and weak credentials at start-up", async () => {
    expect(await verifier.verify(request({ RecordType: "Bounce", MessageID: "m" }), now)).toEqual({
      ok: false,
      refusal: "malformed",
    });
    expect(await verifier.verify(request(["not", "an", "object"]), now)).toMatchObject({
      refusal: "malformed",
    });
    expect(() => postmarkEvents({ username, password: "short" })).toThrow(/16 characters/);
  });
});
