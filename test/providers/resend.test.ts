import { describe, expect, it, vi } from "vitest";
import { type ResendTransportOptions, resendTransport } from "../../src/providers/index.js";
import { emailMessage, key } from "../transport/messages.js";
import { json, type Reply, useLoopback } from "./loopback.js";
import { closedPort, deliveryFailure, expectMapped, itRefusesLikeEveryProvider } from "./shared-cases.js";

const apiKey = "re_test_0123456789";
const emailId = "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794";
const loopback = useLoopback(json(200, { id: emailId }));

function transport(overrides: Partial<ResendTransportOptions> = {}) {
  return resendTransport({
    apiKey,
    from: "Example Clinic <clinic@example.com>",
    baseUrl: `http://127.0.0.1:${loopback().port}`,
    ...overrides,
  });
}

// Resend's documented error body: { statusCode, message, name }.
function resendError(status: number, name: string, message: string): Reply {
  return json(status, { statusCode: status, message, name });
}

function failure(reply: Reply, options: Partial<ResendTransportOptions> = {}) {
  loopback().reply = () => reply;
  return deliveryFailure(transport(options));
}

describe("resendTransport against Resend's documented API", () => {
  it("POSTs the decided message to /emails with the bearer key and the Idempotency-Key, and returns Resend's id", async () => {
    const message = emailMessage();
    const receipt = await transport().deliver(message, { key, attempt: 1 });
    expect(receipt).toEqual({ id: emailId });
    expect(loopback().received).toHaveLength(1);
    const [request] = loopback().received;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/emails");
    expect(request?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(request?.headers["idempotency-key"]).toBe(key);
    expect(request?.headers["content-type"]).toMatch(/^application\/json/);
    // Byte for byte, one recipient, no template, nothing else.
    expect(JSON.parse(request?.body ?? "")).toEqual({
      from: '"Example Clinic" <clinic@example.com>',
      to: ["ada.lovelace@example.org"],
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
  });

  it("sends no html for a message without HTML", async () => {
    const { html: _, ...plain } = emailMessage();
    await transport().deliver(plain, { key, attempt: 1 });
    expect(JSON.parse(loopback().received[0]?.body ?? "")).not.toHaveProperty("html");
  });

  it("declares that it deduplicates by key, and sends the same key on a retry", async () => {
    const email = transport();
    expect(email.deduplicatesByKey).toBe(true);
    await email.deliver(emailMessage(), { key, attempt: 1 });
    await email.deliver(emailMessage(), { key, attempt: 2 });
    expect(loopback().received.map((request) => request.headers["idempotency-key"])).toEqual([key, key]);
  });

  // [status, name, reason, retried, text]; the names and texts are Resend's documented ones, shortened.
  const cases: readonly [number, string, string, boolean, string][] = [
    [401, "missing_api_key", "auth_failed", false, "Missing API key in the authorization header."],
    [401, "restricted_api_key", "auth_failed", false, "This API key is restricted to only send emails."],
    [403, "invalid_api_key", "auth_failed", false, "API key is invalid."],
    [
      403,
      "validation_error",
      "sender_rejected",
      false,
      "You can only send testing emails to your own address.",
    ],
    [422, "invalid_from_address", "sender_rejected", false, "Invalid `from` field."],
    [422, "validation_error", "recipient_invalid", false, "Invalid `to` field."],
    [400, "validation_error", "invalid_request", false, "The `subject` field is required."],
    [422, "missing_required_field", "invalid_request", false, "Missing `from` field."],
    [409, "invalid_idempotent_request", "idempotency_conflict", false, "Same key, another payload."],
    [409, "concurrent_idempotent_requests", "busy", true, "Same key, still in progress."],
    [429, "rate_limit_exceeded", "rate_limited", true, "Too many requests."],
    [429, "daily_quota_exceeded", "quota_exceeded", false, "Daily sending quota reached."],
    [429, "monthly_quota_exceeded", "quota_exceeded", false, "Monthly sending quota reached."],
    [451, "security_error", "account_blocked", false, "A security issue with the request."],
    [500, "application_error", "server_error", true, "An unexpected error occurred."],
    [500, "internal_server_error", "server_error", true, "An unexpected error occurred."],
  ];

  it.each(cases)("maps %i %s", async (status, name, reason, retryable, text) => {
    expectMapped(await failure(resendError(status, name, text)), "resend", reason, retryable);
  });

  it("maps a 502 that is not JSON as a server error, retried", async () => {
    expectMapped(
      await failure({ status: 502, body: "<html>Bad Gateway</html>" }),
      "resend",
      "server_error",
      true,
    );
  });

  it("keeps the status and Resend's error name as facts on the error", async () => {
    const error = await failure(resendError(403, "invalid_api_key", "API key is invalid."));
    expect(error.status).toBe(403);
    expect(error.providerCode).toBe("invalid_api_key");
  });

  it("retries a 200 that is not JSON: the outcome is unknown, and a repeat of the key is dropped", async () => {
    const error = await failure({ status: 200, body: "<html>OK</html>" });
    expect(error.retryable).toBe(true);
    expect(error.status).toBeUndefined();
  });

  it("retries a 200 JSON answer without an id", async () => {
    const error = await failure(json(200, { object: "email" }));
    expect(error.retryable).toBe(true);
  });

  it("bounds a request that gets no answer by timeoutMs, retryable", async () => {
    expectMapped(await failure("hang", { timeoutMs: 150 }), "resend", "timeout", true);
  });

  it("reports a refused connection as a retryable network failure", async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    expectMapped(await deliveryFailure(transport({ baseUrl })), "resend", "network", true);
  });

  it("sends to Resend's API whatever RESEND_BASE_URL says, unless baseUrl is given", async () => {
    const urls: string[] = [];
    vi.stubEnv("RESEND_BASE_URL", `http://127.0.0.1:${loopback().port}`);
    vi.stubGlobal("fetch", async (url: string) => {
      urls.push(String(url));
      return new Response(JSON.stringify({ id: emailId }), { status: 200 });
    });
    try {
      await resendTransport({ apiKey, from: "clinic@example.com" }).deliver(emailMessage(), {
        key,
        attempt: 1,
      });
    } finally {
      vi.unstubAllGlobals();
      vi.unstubAllEnvs();
    }
    expect(urls).toEqual(["https://api.resend.com/emails"]);
    expect(loopback().received).toHaveLength(0);
  });

  itRefusesLikeEveryProvider((overrides) => transport(overrides), loopback, "apiKey");
});
