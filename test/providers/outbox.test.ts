import { describe, expect, it } from "vitest";
import { memoryStore } from "../../src/index.js";
import { postmarkTransport, resendTransport, sesTransport } from "../../src/providers/index.js";
import { proposal } from "../fixtures/property.js";
import { outboxOver } from "../outbox/harness.js";
import { json, useLoopback } from "./loopback.js";

const loopback = useLoopback(json(500, { statusCode: 500, name: "application_error", message: "unset" }));

// The outbox over the fake providers: what a queue item and the retries look like with real transports.
describe("provider transports under the outbox", () => {
  it("retries Resend's 429 with the same Idempotency-Key and records Resend's id as the receipt", async () => {
    let calls = 0;
    loopback().reply = () => {
      calls++;
      return calls < 3
        ? json(429, { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests." })
        : json(200, { id: "re-id-1" });
    };
    const transport = resendTransport({
      apiKey: "re_test",
      from: "office@example.com",
      baseUrl: `http://127.0.0.1:${loopback().port}`,
    });
    const { outbox } = outboxOver(memoryStore(), { transport });
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    expect(result.delivery).toEqual({ status: "delivered", attempts: 3, receiptId: "re-id-1" });
    const keys = loopback().received.map((request) => request.headers["idempotency-key"]);
    expect(keys).toEqual([result.decision.key, result.decision.key, result.decision.key]);
  });

  it("hands Postmark's inactive recipient to a person at once, with the reason and code in the item", async () => {
    loopback().reply = () => json(422, { ErrorCode: 406, Message: "Recipient marked as inactive." });
    const transport = postmarkTransport({
      serverToken: "token",
      from: "office@example.com",
      endpoint: { host: `127.0.0.1:${loopback().port}`, useHttps: false },
    });
    const store = memoryStore();
    const { outbox } = outboxOver(store, { transport });
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    expect(result.delivery).toMatchObject({ status: "failed", attempts: 1 });
    expect(loopback().received).toHaveLength(1);
    const [item] = (await store.listQueue({ reason: "delivery_failed" })).items;
    expect(item?.detail).toContain("postmark: recipient_inactive 422 (406)");
  });

  it("retries SES's throttling one request per attempt and records SES's MessageId as the receipt", async () => {
    let calls = 0;
    loopback().reply = () => {
      calls++;
      return calls < 3
        ? json(429, { message: "Too many requests." }, { "x-amzn-errortype": "TooManyRequestsException" })
        : json(200, { MessageId: "ses-id-1" });
    };
    const transport = sesTransport({
      region: "eu-west-1",
      credentials: { accessKeyId: "AKID", secretAccessKey: "secret" },
      from: "office@example.com",
      endpoint: `http://127.0.0.1:${loopback().port}`,
    });
    const { outbox } = outboxOver(memoryStore(), { transport });
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    expect(result.delivery).toEqual({ status: "delivered", attempts: 3, receiptId: "ses-id-1" });
    expect(loopback().received).toHaveLength(3);
    const tags = loopback().received.map((request) => JSON.parse(request.body).EmailTags[0].Value);
    expect(tags).toEqual([result.decision.key, result.decision.key, result.decision.key]);
  });

  it("hands SES's suspended account to a person at once, with the reason and error name in the item", async () => {
    loopback().reply = () =>
      json(400, { message: "Account suspended." }, { "x-amzn-errortype": "AccountSuspendedException" });
    const transport = sesTransport({
      region: "eu-west-1",
      credentials: { accessKeyId: "AKID", secretAccessKey: "secret" },
      from: "office@example.com",
      endpoint: `http://127.0.0.1:${loopback().port}`,
    });
    const store = memoryStore();
    const { outbox } = outboxOver(store, { transport });
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    expect(result.delivery).toMatchObject({ status: "failed", attempts: 1 });
    const [item] = (await store.listQueue({ reason: "delivery_failed" })).items;
    expect(item?.detail).toContain("ses: account_blocked 400 (AccountSuspendedException)");
  });
});
