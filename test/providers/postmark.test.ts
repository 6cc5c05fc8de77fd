import { describe, expect, it } from "vitest";
import { type PostmarkTransportOptions, postmarkTransport } from "../../src/providers/index.js";
import { emailMessage, key } from "../transport/messages.js";
import { json, type Reply, useLoopback } from "./loopback.js";
import { closedPort, deliveryFailure, expectMapped, itRefusesLikeEveryProvider } from "./shared-cases.js";

const token = "server-token-0123";
const messageId = "b7bc2f4a-e38e-4336-af7d-e6c392c2f817";
const loopback = useLoopback(
  json(200, { To: "ada.lovelace@example.org", MessageID: messageId, ErrorCode: 0, Message: "OK" }),
);

function transport(overrides: Partial<PostmarkTransportOptions> = {}) {
  return postmarkTransport({
    serverToken: token,
    from: "Example Clinic <clinic@example.com>",
    endpoint: { host: `127.0.0.1:${loopback().port}`, useHttps: false },
    ...overrides,
  });
}

function failure(reply: Reply, options: Partial<PostmarkTransportOptions> = {}) {
  loopback().reply = () => reply;
  return deliveryFailure(transport(options));
}

// Postmark's documented error body: { ErrorCode, Message }.
const postmarkError = (status: number, code: number, message = "") =>
  json(status, { ErrorCode: code, Message: message });

describe("postmarkTransport against Postmark's documented API", () => {
  it("POSTs the decided message to /email with the server token, and returns Postmark's MessageID", async () => {
    const message = emailMessage();
    expect(await transport().deliver(message, { key, attempt: 1 })).toEqual({ id: messageId });
    expect(loopback().received).toHaveLength(1);
    const [request] = loopback().received;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/email");
    expect(request?.headers["x-postmark-server-token"]).toBe(token);
    expect(request?.headers["content-type"]).toMatch(/^application\/json/);
    expect(request?.headers.accept).toMatch(/application\/json/);
    // Byte for byte, one recipient, tracking off (it would rewrite links), nothing else.
    expect(JSON.parse(request?.body ?? "")).toEqual({
      From: '"Example Clinic" <clinic@example.com>',
      To: "ada.lovelace@example.org",
      Subject: message.subject,
      TextBody: message.text,
      HtmlBody: message.html,
      MessageStream: "outbound",
      TrackOpens: false,
      TrackLinks: "None",
      Metadata: { formletter_key: key },
    });
  });

  it("sends no HtmlBody for a message without HTML, and takes another message stream", async () => {
    const { html: _, ...plain } = emailMessage();
    await transport({ messageStream: "reminders" }).deliver(plain, { key, attempt: 1 });
    const body = JSON.parse(loopback().received[0]?.body ?? "");
    expect(body).not.toHaveProperty("HtmlBody");
    expect(body.MessageStream).toBe("reminders");
  });

  it("does not declare that it deduplicates by key: Postmark has no idempotency key", () => {
    expect(transport().deduplicatesByKey).not.toBe(true);
  });

  // [status, ErrorCode, reason, retried, text]; the texts are Postmark's documented ones, shortened.
  const cases: readonly [number, number, string, boolean, string][] = [
    [401, 10, "auth_failed", false, "Request does not contain a valid Server token."],
    [422, 406, "recipient_inactive", false, "Recipient marked as inactive."],
    [422, 300, "recipient_invalid", false, "Error parsing 'To': Illegal address."],
    [422, 300, "invalid_request", false, "Provide either email TextBody or HtmlBody."],
    [422, 400, "sender_rejected", false, "The 'From' address is not a Sender Signature."],
    [422, 412, "account_blocked", false, "Your account is pending approval."],
    [422, 405, "account_blocked", false, "You have run out of credits."],
    [429, 429, "rate_limited", true, "Rate limit exceeded."],
    [500, 0, "server_error", true, "Internal server error."],
    [422, 100, "server_error", true, "Maintenance."],
  ];

  it.each(cases)("maps %i with ErrorCode %i to %s", async (status, code, reason, retryable, text) => {
    expectMapped(await failure(postmarkError(status, code, text)), "postmark", reason, retryable);
  });

  it.each([
    [503, "server_error", true],
    [403, "auth_failed", false],
  ] as const)("maps a %i that is not JSON (a proxy's page) to %s", async (status, reason, retryable) => {
    const error = await failure({ status, body: "<html>not the API</html>" });
    expectMapped(error, "postmark", reason, retryable);
  });

  it("keeps the status and Postmark's ErrorCode as facts on the error", async () => {
    const error = await failure(postmarkError(422, 406, "inactive"));
    expect(error.status).toBe(422);
    expect(error.providerCode).toBe(406);
    expect(error.message).toContain("recipient_inactive 422 (406)");
  });

  it("treats a 200 that is not JSON as unconfirmed and permanent: the SDK returns it as a string", async () => {
    const error = await failure({ status: 200, body: "<html>OK</html>" });
    expectMapped(error, "postmark", "unconfirmed", false);
    expect(error.message).toContain("formletter_key");
  });

  it("treats a 200 JSON answer without a MessageID as unconfirmed", async () => {
    expectMapped(await failure(postmarkError(200, 0, "OK")), "postmark", "unconfirmed", false);
  });

  it("bounds a request that gets no answer by timeoutMs, retryable", async () => {
    expectMapped(await failure("hang", { timeoutMs: 150 }), "postmark", "timeout", true);
  });

  it("reports a refused connection as a retryable network failure", async () => {
    const endpoint = { host: `127.0.0.1:${await closedPort()}`, useHttps: false };
    expectMapped(await deliveryFailure(transport({ endpoint })), "postmark", "network", true);
  });

  itRefusesLikeEveryProvider((overrides) => transport(overrides), loopback, "serverToken");
});
