import { describe, expect, it } from "vitest";
import type { Message } from "../../src/core/decision/decision.js";
import { type TwilioTransportOptions, twilioTransport } from "../../src/providers/index.js";
import { emailMessage, key, smsMessage } from "../transport/messages.js";
import { json, type Reply, useLoopback } from "./loopback.js";
import { closedPort, creationFailure, deliveryFailure, expectMapped } from "./shared-cases.js";

const accountSid = `AC${"0123456789abcdef".repeat(2)}`;
const authToken = "auth-token-0123456789";
const sid = `SM${"fedcba9876543210".repeat(2)}`;
const contentSid = `HX${"a1b2c3d4e5f60718".repeat(2)}`;
const loopback = useLoopback(json(201, { sid, status: "queued" }));

const pickup = {
  contentSid,
  body: "Your order {{1}} is ready for pickup at {{2}}. Reply STOP to opt out.",
};

function transport(overrides: Partial<TwilioTransportOptions> = {}) {
  return twilioTransport({
    accountSid,
    authToken,
    from: "+14155550100",
    whatsapp: { pickup_ready: pickup },
    baseUrl: `http://127.0.0.1:${loopback().port}`,
    ...overrides,
  });
}

function whatsappMessage(text: string, overrides: Partial<Message> = {}): Message {
  return { template: "pickup_ready", channel: "whatsapp", to: "+493012345678", text, ...overrides };
}

function form(body: string | undefined) {
  return Object.fromEntries(new URLSearchParams(body ?? ""));
}

// Twilio's documented error body: { code, message, more_info, status }.
function twilioError(status: number, code: number, message: string): Reply {
  return json(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
}

function failure(
  reply: Reply,
  message: Message = smsMessage(),
  options: Partial<TwilioTransportOptions> = {},
) {
  loopback().reply = () => reply;
  return deliveryFailure(transport(options), message);
}

describe("twilioTransport against Twilio's documented Messages API", () => {
  it("POSTs an SMS to the account's Messages.json with basic auth, form-encoded, smart encoding off", async () => {
    const message = smsMessage({ text: "Größe “M” — order 4471-2290 is ready.\nBye" });
    expect(await transport().deliver(message, { key, attempt: 1 })).toEqual({ id: sid });
    expect(loopback().received).toHaveLength(1);
    const [request] = loopback().received;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe(`/2010-04-01/Accounts/${accountSid}/Messages.json`);
    expect(request?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`,
    );
    expect(request?.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(form(request?.body)).toEqual({
      To: "+493012345678",
      Body: message.text,
      From: "+14155550100",
      SmartEncoded: "false",
    });
  });

  it("sends through a Messaging Service when one is given", async () => {
    const messagingServiceSid = `MG${"0123456789abcdef".repeat(2)}`;
    const viaService = twilioTransport({
      accountSid,
      authToken,
      messagingServiceSid,
      baseUrl: `http://127.0.0.1:${loopback().port}`,
    });
    await viaService.deliver(smsMessage(), { key, attempt: 1 });
    expect(form(loopback().received[0]?.body)).toMatchObject({ MessagingServiceSid: messagingServiceSid });
    expect(form(loopback().received[0]?.body)).not.toHaveProperty("From");
  });

  it("sends a WhatsApp message as its approved template, each variable read back from the decided text", async () => {
    const text = "Your order 4471-2290 is ready for pickup at Hauptstraße 5, Berlin. Reply STOP to opt out.";
    await transport().deliver(whatsappMessage(text), { key, attempt: 1 });
    const sent = form(loopback().received[0]?.body);
    expect(sent).toEqual({
      To: "whatsapp:+493012345678",
      From: "whatsapp:+14155550100",
      ContentSid: contentSid,
      ContentVariables: JSON.stringify({ "1": "4471-2290", "2": "Hauptstraße 5, Berlin" }),
    });
    // What WhatsApp renders from the approved text and these variables is the decided text.
    const variables = JSON.parse(sent.ContentVariables ?? "") as Record<string, string>;
    expect(pickup.body.replace(/\{\{(\d)\}\}/g, (_, n: string) => variables[n] ?? "")).toBe(text);
  });

  it("sends a localised message as the template approved for its locale", async () => {
    const german = {
      contentSid: `HX${"d".repeat(32)}`,
      body: "Ihre Bestellung {{1}} liegt bei {{2}} bereit.",
    };
    const email = transport({ whatsapp: { pickup_ready: pickup, "pickup_ready:de": german } });
    await email.deliver(whatsappMessage("Ihre Bestellung 4471 liegt bei Kasse 2 bereit.", { locale: "de" }), {
      key,
      attempt: 1,
    });
    const sent = form(loopback().received[0]?.body);
    expect(sent.ContentSid).toBe(german.contentSid);
    expect(JSON.parse(sent.ContentVariables ?? "")).toEqual({ "1": "4471", "2": "Kasse 2" });
  });

  it("reads a header's variables too, numbered as approved", async () => {
    const withHeader = { contentSid, header: "Order {{1}}", body: "Hello {{2}}, order {{1}} is ready." };
    await transport({ whatsapp: { pickup_ready: withHeader } }).deliver(
      whatsappMessage("Hello Ada, order 4471 is ready.", { subject: "Order 4471" }),
      { key, attempt: 1 },
    );
    expect(JSON.parse(form(loopback().received[0]?.body).ContentVariables ?? "")).toEqual({
      "1": "4471",
      "2": "Ada",
    });
  });

  it.each([
    ["a text that is not the approved one", "Your order 4471 is ready. Pick it up at Hauptstraße 5, Berlin."],
    [
      "a value holding the fixed text, read two ways",
      "Your order 1 is ready for pickup at 2 is ready for pickup at 3. Reply STOP to opt out.",
    ],
    ["an empty variable", "Your order  is ready for pickup at . Reply STOP to opt out."],
    ["a variable with a line break", "Your order 4471\n is ready for pickup at X. Reply STOP to opt out."],
  ])("refuses %s without a request, permanently", async (_name, text) => {
    const error = await deliveryFailure(transport(), whatsappMessage(text));
    expectMapped(error, "twilio", "invalid_request", false);
    expect(loopback().received).toHaveLength(0);
  });

  it.each([
    ["a WhatsApp template with no approved template", whatsappMessage("x", { template: "other" })],
    [
      "a header the approved template does not have",
      whatsappMessage("Your order 1 is ready for pickup at 2. Reply STOP to opt out.", { subject: "Hi" }),
    ],
    ["a recipient with a line break", smsMessage({ to: "+493012345678\r\nBody: x" })],
    ["a recipient that is not E.164", smsMessage({ to: "030 1234 5678" })],
    ["an e-mail", emailMessage()],
  ])("refuses %s without a request, permanently", async (_name, message) => {
    expectMapped(await deliveryFailure(transport(), message), "twilio", "invalid_request", false);
    expect(loopback().received).toHaveLength(0);
  });

  // [status, code, reason, retried, text]; codes from Twilio's error dictionary.
  const cases: readonly [number, number, string, boolean, string][] = [
    [401, 20003, "auth_failed", false, "Authenticate"],
    [401, 20005, "account_blocked", false, "Account not active"],
    [429, 20429, "rate_limited", true, "Too Many Requests"],
    [
      400,
      21611,
      "rate_limited",
      true,
      "This 'From' number has exceeded the maximum number of queued messages",
    ],
    [400, 21211, "recipient_invalid", false, "The 'To' number +4930 is not a valid phone number."],
    [400, 21614, "recipient_invalid", false, "'To' number is not a valid mobile number"],
    [400, 21612, "recipient_invalid", false, "The 'To' phone number is not currently reachable"],
    [400, 21610, "recipient_inactive", false, "Attempt to send to unsubscribed recipient"],
    [400, 21408, "account_blocked", false, "Permission to send an SMS has not been enabled for the region"],
    [
      400,
      21606,
      "sender_rejected",
      false,
      "The 'From' phone number provided is not a valid message-capable Twilio phone number",
    ],
    [400, 63007, "sender_rejected", false, "Twilio could not find a Channel with the specified From address"],
    [400, 21617, "invalid_request", false, "The concatenated message body exceeds the 1600 character limit"],
    [500, 20500, "server_error", true, "Internal Server Error"],
    [503, 20503, "server_error", true, "Service Unavailable"],
  ];

  it.each(cases)("maps %i %i", async (status, code, reason, retryable, text) => {
    const error = await failure(twilioError(status, code, text));
    expectMapped(error, "twilio", reason, retryable);
    expect(error.status).toBe(status);
    expect(error.providerCode).toBe(code);
  });

  it("maps a 502 that is not JSON as a server error, retried", async () => {
    expectMapped(
      await failure({ status: 502, body: "<html>Bad Gateway</html>" }),
      "twilio",
      "server_error",
      true,
    );
  });

  it.each([
    ["not JSON", { status: 201, body: "<html>Created</html>" }],
    ["JSON without a SID", json(201, { status: "queued" })],
  ])("hands a 201 %s to a person: the message may have been sent", async (_name, reply) => {
    expectMapped(await failure(reply), "twilio", "unconfirmed", false);
  });

  it("sends a long SMS whole, once: the SDK does not retry", async () => {
    const text = "ä".repeat(1_600);
    await transport().deliver(smsMessage({ text }), { key, attempt: 1 });
    expect(form(loopback().received[0]?.body).Body).toBe(text);
    loopback().received.length = 0;
    await failure(twilioError(429, 20429, "Too Many Requests"));
    expect(loopback().received).toHaveLength(1);
  });

  it("bounds a request that gets no answer by timeoutMs, retryable", async () => {
    expectMapped(await failure("hang", smsMessage(), { timeoutMs: 150 }), "twilio", "timeout", true);
  });

  it("reports a refused connection as a retryable network failure", async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    expectMapped(await deliveryFailure(transport({ baseUrl }), smsMessage()), "twilio", "network", true);
  });

  it.each([
    ["an empty auth token", { authToken: " " }, /authToken is empty/],
    ["an account SID with a path", { accountSid: `${accountSid}/../x` }, /accountSid must be an Account SID/],
    [
      "both a sender and a service",
      { messagingServiceSid: `MG${"0".repeat(32)}` },
      /either from .* or messagingServiceSid/,
    ],
    ["a sender with a line break", { from: "+1415\r\nX" }, /not an E\.164 number/],
    ["a WhatsApp sender that is a name", { from: "Clinic" }, /WhatsApp needs from/],
    [
      "a Content SID that is not one",
      { whatsapp: { t: { ...pickup, contentSid: "HX1" } } },
      /whatsapp\.t\.contentSid/,
    ],
    [
      "approved variables side by side",
      { whatsapp: { t: { contentSid, body: "Hi {{1}}{{2}}." } } },
      /next to each other/,
    ],
    [
      "an approved placeholder without a number",
      { whatsapp: { t: { contentSid, body: "Hi {{name}}." } } },
      /not "\{\{n\}\}"/,
    ],
    ["a timeout of 0", { timeoutMs: 0 }, /timeoutMs must be a whole number/],
  ])("fails at creation on %s, naming the fix", (_name, overrides, pattern) => {
    expect(creationFailure(() => transport(overrides))).toMatch(pattern);
  });
});
