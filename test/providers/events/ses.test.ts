import { createSign, generateKeyPairSync } from "node:crypto";
import https from "node:https";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sesEvents } from "../../../src/providers/events/ses.js";
import { eventRequest, eventsOf, now } from "./request.js";

const topicArn = "arn:aws:sns:eu-west-1:123456789012:ses-events";
const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
const pem = keys.publicKey.export({ type: "spki", format: "pem" }).toString();
const certUrl = "https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0123.pem";

const sesBounce = (bounceType = "Permanent") =>
  JSON.stringify({
    notificationType: "Bounce",
    bounce: {
      bounceType,
      bounceSubType: "General",
      bouncedRecipients: [{ emailAddress: "ana@shop.example", status: "5.1.1" }],
      timestamp: "2026-03-02T08:58:00.000Z",
    },
    mail: { messageId: "0102018f-aaaa-bbbb", destination: ["ana@shop.example"] },
  });

// The fields AWS documents as signed, in this order, per message type.
const signedFields = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: [
    "Message",
    "MessageId",
    "SubscribeURL",
    "Timestamp",
    "Token",
    "TopicArn",
    "Type",
  ],
} as const;

/** An SNS message signed the documented way: "name\nvalue\n" of each signed field, RSA with SHA-256 (v2) or SHA-1 (v1). */
function snsMessage(
  fields: Record<string, string>,
  options: { key?: typeof keys.privateKey; version?: "1" | "2"; cert?: string } = {},
): Record<string, string> {
  const message: Record<string, string> = {
    Type: "Notification",
    MessageId: "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
    TopicArn: topicArn,
    Message: sesBounce(),
    Timestamp: new Date(now - 60_000).toISOString(),
    SignatureVersion: options.version ?? "2",
    SigningCertURL: options.cert ?? certUrl,
    ...fields,
  };
  const signer = createSign(message.SignatureVersion === "1" ? "RSA-SHA1" : "RSA-SHA256");
  for (const name of signedFields[message.Type as keyof typeof signedFields])
    if (message[name] !== undefined) signer.update(`${name}\n${message[name]}\n`);
  message.Signature = signer.sign(options.key ?? keys.privateKey, "base64");
  return message;
}

const request = (message: object) =>
  eventRequest(JSON.stringify(message), {
    "content-type": "text/plain; charset=UTF-8",
    "x-amz-sns-message-type": "Notification",
  });

describe("sesEvents (SNS signatures)", () => {
  const fetched: string[] = [];
  const confirmed: string[] = [];
  const verifier = sesEvents({
    topicArns: [topicArn],
    certificate: async (url) => {
      fetched.push(url.href);
      return pem;
    },
    confirmSubscription: async (url) => {
      confirmed.push(url.href);
    },
  });
  afterEach(() => {
    fetched.length = 0;
    confirmed.length = 0;
  });

  it.each(["1", "2"] as const)(
    "accepts a notification signed the documented way, signature version %s",
    async (version) => {
      expect(await verifier.verify(request(snsMessage({}, { version })), now)).toEqual({
        ok: true,
        ignored: 0,
        events: [
          {
            provider: "ses",
            eventId: "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
            messageId: "0102018f-aaaa-bbbb",
            status: "bounced",
            bounce: "hard",
            code: "5.1.1",
            at: Date.parse("2026-03-02T08:58:00.000Z"),
          },
        ],
      });
      expect(fetched).toEqual([certUrl]);
    },
  );

  it("reads transient bounces as soft, complaints, deliveries and rejects, from notifications and event publishing", async () => {
    const read = async (message: object) =>
      eventsOf(await verifier.verify(request(snsMessage({ Message: JSON.stringify(message) })), now));
    const mail = { messageId: "m-1" };
    expect(
      await read({ notificationType: "Bounce", bounce: { bounceType: "Transient" }, mail }),
    ).toMatchObject([{ status: "bounced", bounce: "soft" }]);
    expect(await read({ eventType: "Complaint", complaint: {}, mail })).toMatchObject([
      { status: "complained" },
    ]);
    expect(await read({ notificationType: "Delivery", delivery: {}, mail })).toMatchObject([
      { status: "delivered" },
    ]);
    expect(await read({ eventType: "Reject", mail })).toMatchObject([{ status: "failed" }]);
    expect(await read({ eventType: "Open", mail })).toEqual([]);
  });

  it("refuses a tampered message, another key, an old timestamp, another topic and missing fields", async () => {
    const refused = { ok: false, refusal: "signature" };
    const good = snsMessage({});
    expect(await verifier.verify(request({ ...good, Message: sesBounce("Transient") }), now)).toEqual(
      refused,
    );
    expect(await verifier.verify(request(snsMessage({}, { key: other.privateKey })), now)).toEqual(refused);
    expect(
      await verifier.verify(request(snsMessage({ Timestamp: new Date(now - 3_601_000).toISOString() })), now),
    ).toEqual(refused);
    expect(
      await verifier.verify(
        request(snsMessage({ TopicArn: "arn:aws:sns:eu-west-1:999999999999:other" })),
        now,
      ),
    ).toEqual(refused);
    for (const name of ["Signature", "SigningCertURL", "Timestamp", "Type"]) {
      const { [name]: _, ...without } = good;
      expect(await verifier.verify(request(without), now)).toEqual(refused);
    }
    expect(await verifier.verify(request({ ...good, SignatureVersion: "3" }), now)).toEqual(refused);
  });

  it.each([
    "https://sns.eu-west-1.amazonaws.com.evil.example/cert.pem",
    "https://evil.example/sns.eu-west-1.amazonaws.com/cert.pem",
    "http://sns.eu-west-1.amazonaws.com/cert.pem",
    "https://sns.eu-west-1.amazonaws.com:8443/cert.pem",
    "https://user@sns.eu-west-1.amazonaws.com/cert.pem",
    "https://sns.eu-west-1.amazonaws.com/cert.txt",
    "https://s3.amazonaws.com/sns.eu-west-1.amazonaws.com/cert.pem",
    // SNS's own host, but of another region than the topic's.
    "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0123.pem",
  ])("refuses a certificate URL outside SNS's domain before fetching anything: %s", async (cert) => {
    expect(await verifier.verify(request(snsMessage({}, { cert })), now)).toEqual({
      ok: false,
      refusal: "signature",
    });
    expect(fetched).toEqual([]);
  });

  it("confirms a signed subscription of a configured topic at SNS's own URL only", async () => {
    const subscribe = (url: string) =>
      snsMessage({
        Type: "SubscriptionConfirmation",
        Message: "You have chosen to subscribe",
        SubscribeURL: url,
        Token: "2336412f37",
      });
    const own = "https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=x&Token=2336412f37";
    expect(await verifier.verify(request(subscribe(own)), now)).toEqual({ ok: true, events: [], ignored: 0 });
    expect(confirmed).toEqual([own]);
    expect(await verifier.verify(request(subscribe("https://evil.example/confirm")), now)).toEqual({
      ok: false,
      refusal: "malformed",
    });
    expect(
      await verifier.verify(
        request({ ...subscribe(own), TopicArn: "arn:aws:sns:eu-west-1:999999999999:other" }),
        now,
      ),
    ).toEqual({ ok: false, refusal: "signature" });
    expect(confirmed).toEqual([own]);
  });

  it("refuses topicArns that list nothing at start-up", () => {
    expect(() => sesEvents({ topicArns: [] })).toThrow(/topicArns/);
  });
});

describe("sesEvents with sns-validator fetching the certificate", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // sns-validator fetches with https.get: answered here with the test's key, for one URL only.
  function serveCertificate(url: string) {
    const asked: string[] = [];
    vi.spyOn(https, "get").mockImplementation(((
      target: string,
      callback: (response: PassThrough) => void,
    ) => {
      asked.push(String(target));
      const response = Object.assign(new PassThrough(), { statusCode: String(target) === url ? 200 : 404 });
      queueMicrotask(() => {
        callback(response);
        response.end(pem);
      });
      return { on: () => undefined };
    }) as unknown as typeof https.get);
    return asked;
  }

  it("accepts a signed notification and refuses a tampered one", async () => {
    const cert = `https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-${Date.now()}.pem`;
    const asked = serveCertificate(cert);
    const verifier = sesEvents({ topicArns: [topicArn] });
    const good = snsMessage({}, { cert });
    expect(await verifier.verify(request(good), now)).toMatchObject({
      ok: true,
      events: [{ bounce: "hard" }],
    });
    expect(await verifier.verify(request({ ...good, Message: sesBounce("Transient") }), now)).toEqual({
      ok: false,
      refusal: "signature",
    });
    expect(asked[0]).toBe(cert);
  });

  it("refuses a certificate URL outside SNS's domain without fetching it", async () => {
    const asked = serveCertificate("https://evil.example/cert.pem");
    const verifier = sesEvents({ topicArns: [topicArn] });
    expect(
      await verifier.verify(request(snsMessage({}, { cert: "https://evil.example/cert.pem" })), now),
    ).toEqual({
      ok: false,
      refusal: "signature",
    });
    expect(asked).toEqual([]);
  });
});
