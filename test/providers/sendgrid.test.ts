import { describe, expect, it } from "vitest";
import { type SendgridTransportOptions, sendgridTransport } from "../../src/providers/index.js";
import { emailMessage, key } from "../transport/messages.js";
import { json, type Reply, useLoopback } from "./loopback.js";
import {
  closedPort,
  creationFailure,
  deliveryFailure,
  expectMapped,
  itRefusesLikeEveryProvider,
} from "./shared-cases.js";

const apiKey = "SG.test-key.0123456789";
const messageId = "14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0";
// SendGrid answers an accepted message with 202, no body, and its id in X-Message-Id.
const accepted: Reply = { status: 202, body: "", headers: { "x-message-id": messageId } };
const loopback = useLoopback(accepted);

function transport(overrides: Partial<SendgridTransportOptions> = {}) {
  return sendgridTransport({
    apiKey,
    from: "Example Clinic <clinic@example.com>",
    baseUrl: `http://127.0.0.1:${loopback().port}/`,
    ...overrides,
  });
}

// SendGrid's documented error body: { errors: [{ message, field, help }] }.
function sendgridError(status: number, message: string, field: string | null = null): Reply {
  return json(status, { errors: [{ message, field, help: null }] });
}

function failure(reply: Reply, options: Partial<SendgridTransportOptions> = {}) {
  loopback().reply = () => reply;
  return deliveryFailure(transport(options));
}

describe("sendgridTransport against SendGrid's documented v3 Mail Send API", () => {
  it("POSTs the decided message to /v3/mail/send with the bearer key, tracking off, and returns X-Message-Id", async () => {
    const message = emailMessage();
    expect(await transport().deliver(message, { key, attempt: 1 })).toEqual({ id: messageId });
    expect(loopback().received).toHaveLength(1);
    const [request] = loopback().received;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v3/mail/send");
    expect(request?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(request?.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(request?.body ?? "")).toEqual({
      from: { email: "clinic@example.com", name: "Example Clinic" },
      personalizations: [{ to: [{ email: "ada.lovelace@example.org" }] }],
      subject: message.subject,
      content: [
        { type: "text/plain", value: message.text },
        { type: "text/html", value: message.html },
      ],
      custom_args: { formletter_key: key, formletter_template: "appointment_reminder" },
      tracking_settings: {
        click_tracking: { enable: false, enable_text: false },
        open_tracking: { enable: false },
        subscription_tracking: { enable: false },
        ganalytics: { enable: false },
      },
      mail_settings: { footer: { enable: false } },
    });
  });

  it("sends text that looks like SendGrid's substitution tags as it is", async () => {
    const text = "Order {{order}} -name- %name% <%body%> [unsubscribe]";
    const { html: _, ...plain } = emailMessage({ text });
    await transport().deliver(plain, { key, attempt: 1 });
    const body = JSON.parse(loopback().received[0]?.body ?? "");
    expect(body.content).toEqual([{ type: "text/plain", value: text }]);
    expect(body).not.toHaveProperty("personalizations.0.substitutions");
  });

  // [status, message, field, reason, retried]; texts are SendGrid's documented ones, shortened.
  const cases: readonly [number, string, string | null, string, boolean][] = [
    [400, "Does not contain a valid address.", "personalizations.0.to.0.email", "recipient_invalid", false],
    [400, "The subject is required.", "subject", "invalid_request", false],
    [401, "The provided authorization grant is invalid, expired, or revoked", null, "auth_failed", false],
    [401, "Maximum credits exceeded", null, "quota_exceeded", false],
    [403, "The from address does not match a verified Sender Identity.", "from", "sender_rejected", false],
    [403, "access forbidden", null, "auth_failed", false],
    [413, "The JSON payload you have included in your request is too large.", null, "invalid_request", false],
    [429, "too many requests", null, "rate_limited", true],
    [500, "internal error", null, "server_error", true],
    [503, "service unavailable", null, "server_error", true],
  ];

  it.each(cases)("maps %i %s", async (status, text, field, reason, retryable) => {
    const error = await failure(sendgridError(status, text, field));
    expectMapped(error, "sendgrid", reason, retryable);
    expect(error.status).toBe(status);
    if (field !== null) expect(error.providerCode).toBe(field);
  });

  it("maps a 502 that is not JSON as a server error, retried", async () => {
    expectMapped(
      await failure({ status: 502, body: "<html>Bad Gateway</html>" }),
      "sendgrid",
      "server_error",
      true,
    );
  });

  it.each([
    ["a 202 without X-Message-Id", { status: 202, body: "" }],
    ["a 200 that is not JSON", { status: 200, body: "<html>OK</html>" }],
  ])("hands %s to a person: the message may have been sent", async (_name, reply) => {
    expectMapped(await failure(reply), "sendgrid", "unconfirmed", false);
  });

  it("follows no redirect: a 307 is refused, and nothing is sent to its address", async () => {
    const error = await failure({
      status: 307,
      body: "",
      headers: { location: "http://127.0.0.1:1/v3/mail/send" },
    });
    expectMapped(error, "sendgrid", "invalid_request", false);
    expect(error.status).toBe(307);
    expect(loopback().received).toHaveLength(1);
  });

  it("refuses, permanently, a message the SDK refuses before any request", async () => {
    const broken = emailMessage({ text: 42 as unknown as string });
    expectMapped(await deliveryFailure(transport(), broken), "sendgrid", "invalid_request", false);
    expect(loopback().received).toHaveLength(0);
  });

  it("bounds a request that gets no answer by timeoutMs, retryable", async () => {
    expectMapped(await failure("hang", { timeoutMs: 150 }), "sendgrid", "timeout", true);
  });

  it("reports a refused connection as a retryable network failure", async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/`;
    expectMapped(await deliveryFailure(transport({ baseUrl })), "sendgrid", "network", true);
  });

  it("fails at creation on a key that is not a SendGrid key, instead of letting the SDK print a warning", () => {
    expect(creationFailure(() => transport({ apiKey: "re_not_sendgrid" }))).toMatch(
      /apiKey does not start with "SG\."/,
    );
  });

  itRefusesLikeEveryProvider((overrides) => transport(overrides), loopback, "apiKey");
});
