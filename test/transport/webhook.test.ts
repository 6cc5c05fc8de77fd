import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  DeliveryError,
  isRetryable,
  signWebhookBody,
  verifyWebhookSignature,
  webhookTransport,
} from "../../src/transport/index.js";
import { emailMessage, key, smsMessage } from "./messages.js";

const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly verified: boolean;
}

let server: Server;
let base: string;
let received: Received[] = [];
let flakyCalls = 0;

// Routes by path: each one answers the way a receiver might, and every request is recorded.
beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const verified = verifyWebhookSignature(body, request.headers, secret);
    const path = request.url ?? "/";
    received.push({ method: request.method ?? "", path, headers: request.headers, body, verified });
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(value));
    };
    switch (path) {
      case "/ok":
        if (!verified) return json(401, { error: "bad signature" });
        return json(200, { id: "rcpt_42" });
      case "/flaky":
        flakyCalls += 1;
        if (flakyCalls === 1) return json(503, { error: "warming up" });
        return json(200, { id: "rcpt_after_retry" });
      case "/slow":
        setTimeout(() => json(200, { id: "late" }), 1500);
        return;
      case "/bad":
        response.writeHead(400, { "content-type": "text/html" });
        return response.end(`<html>${"x".repeat(5000)}</html>`);
      case "/busy":
        return json(429, { error: "slow down" });
      case "/redirect":
        response.writeHead(302, { location: "/ok" });
        return response.end();
      case "/plain":
        response.writeHead(202, { "content-type": "text/plain" });
        return response.end("queued");
      case "/long-id":
        return json(200, { id: "y".repeat(500) });
      default:
        return json(404, { error: "no route" });
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, "close");
});

beforeEach(() => {
  received = [];
  flakyCalls = 0;
});

const transportFor = (path: string, timeoutMs = 2000) =>
  webhookTransport({ url: `${base}${path}`, allowHosts: ["127.0.0.1"], secret, timeoutMs });

async function failure(promise: Promise<unknown>): Promise<DeliveryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return error as DeliveryError;
}

describe("webhookTransport: creation", () => {
  it.each([
    [
      "a host not in allowHosts",
      "https://evil.example.net/hook",
      ["hooks.example.com"],
      /"evil\.example\.net".*allowHosts/,
    ],
    [
      "a host allowed only as a suffix",
      "https://hooks.example.com.evil.net/",
      ["hooks.example.com"],
      /allowHosts/,
    ],
    ["an ftp url", "ftp://hooks.example.com/", ["hooks.example.com"], /https/],
    ["a file url", "file:///etc/passwd", [""], /https/],
    ["a javascript url", "javascript:alert(1)", ["hooks.example.com"], /https/],
    ["http to a non-loopback host", "http://hooks.example.com/", ["hooks.example.com"], /http.*localhost/],
    [
      "credentials in the url",
      "https://user:pw@hooks.example.com/",
      ["hooks.example.com"],
      /user name or password/,
    ],
    ["a relative url", "/hook", ["hooks.example.com"], /valid absolute URL/],
  ])("throws transport_invalid for %s", (_, url, allowHosts, message) => {
    expect(() => webhookTransport({ url, allowHosts, secret })).toThrow(
      expect.objectContaining({ code: "transport_invalid", message: expect.stringMatching(message) }),
    );
  });

  it.each([
    ["a short secret", { secret: "short" }, /secret/],
    ["a secret without the whsec_ prefix", { secret: Buffer.alloc(32).toString("base64") }, /whsec_/],
    ["a whsec_ secret that is not base64", { secret: `whsec_${"!".repeat(44)}` }, /whsec_/],
    [
      "a whsec_ secret under 24 bytes",
      { secret: `whsec_${Buffer.alloc(16).toString("base64")}` },
      /24 to 64/,
    ],
    ["no secret in a list", { secret: [] }, /whsec_/],
    ["a zero timeout", { timeoutMs: 0 }, /timeoutMs/],
    ["a fractional timeout", { timeoutMs: 1.5 }, /timeoutMs/],
  ])("throws transport_invalid for %s", (_, overrides, message) => {
    const options = {
      url: "https://hooks.example.com/",
      allowHosts: ["hooks.example.com"],
      secret,
      ...overrides,
    };
    expect(() => webhookTransport(options)).toThrow(
      expect.objectContaining({ code: "transport_invalid", message: expect.stringMatching(message) }),
    );
  });

  it.each([
    ["https://Hooks.Example.com/formletter", ["hooks.example.com"]],
    ["http://localhost:8080/hook", ["localhost"]],
    ["http://127.0.0.1/hook", ["127.0.0.1"]],
    ["http://[::1]:9000/hook", ["::1"]],
  ])("accepts %s", (url, allowHosts) => {
    const transport = webhookTransport({ url, allowHosts, secret });
    expect(transport.name).toBe("webhook");
  });
});

describe("webhookTransport: delivery", () => {
  it("POSTs exactly the message fields as JSON, with the key and a signature the receiver verifies", async () => {
    const message = emailMessage();
    const receipt = await transportFor("/ok").deliver(message, { key, attempt: 1 });
    expect(receipt).toEqual({ id: "rcpt_42" });
    expect(received).toHaveLength(1);
    const request = received[0];
    expect(request?.method).toBe("POST");
    expect(request?.verified).toBe(true);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers["idempotency-key"]).toBe(key);
    expect(request?.headers["webhook-id"]).toBe(key);
    expect(request?.headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
    expect(request?.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const body = JSON.parse(request?.body ?? "");
    expect(body).toStrictEqual({
      key,
      message: {
        template: message.template,
        channel: "email",
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      },
    });
  });

  it("leaves fields out that the message does not have, and never sends SMS sizing", async () => {
    await transportFor("/ok").deliver(smsMessage(), { key, attempt: 1 });
    const body = JSON.parse(received[0]?.body ?? "");
    expect(Object.keys(body.message)).toEqual(["template", "channel", "to", "text"]);
  });

  it("retries a 5xx: retryable error first, then delivery with the same key", async () => {
    const transport = transportFor("/flaky");
    const error = await failure(transport.deliver(emailMessage(), { key, attempt: 1 }));
    expect(error.retryable).toBe(true);
    expect(isRetryable(error)).toBe(true);
    expect(error.message).toContain("answered 503");
    expect(await transport.deliver(emailMessage(), { key, attempt: 2 })).toEqual({ id: "rcpt_after_retry" });
    expect(received.map((r) => r.headers["idempotency-key"])).toEqual([key, key]);
  });

  it("treats 429 as retryable", async () => {
    const error = await failure(transportFor("/busy").deliver(emailMessage(), { key, attempt: 1 }));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("answered 429");
  });

  it("treats other 4xx as permanent, quoting at most ~200 characters of the reply", async () => {
    const error = await failure(transportFor("/bad").deliver(emailMessage(), { key, attempt: 1 }));
    expect(error.retryable).toBe(false);
    expect(error.code).toBe("delivery_failed");
    expect(error.message).toContain("answered 400");
    expect(error.message.length).toBeLessThan(300);
  });

  it("does not follow a redirect: a 3xx is permanent and the target is never requested", async () => {
    const error = await failure(transportFor("/redirect").deliver(emailMessage(), { key, attempt: 1 }));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/302.*redirect/);
    expect(received.map((r) => r.path)).toEqual(["/redirect"]);
  });

  it("gives up after timeoutMs with a retryable error", async () => {
    const started = Date.now();
    const error = await failure(transportFor("/slow", 100).deliver(emailMessage(), { key, attempt: 1 }));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("100 ms");
    expect(Date.now() - started).toBeLessThan(1200);
  });

  it("treats a refused connection as retryable", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port } = closed.address() as AddressInfo;
    closed.close();
    await once(closed, "close");
    const transport = webhookTransport({
      url: `http://127.0.0.1:${port}/`,
      allowHosts: ["127.0.0.1"],
      secret,
    });
    const error = await failure(transport.deliver(emailMessage(), { key, attempt: 1 }));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("ECONNREFUSED");
  });

  it("derives a stable receipt id from key and attempt when the reply has no usable id", async () => {
    const plain = transportFor("/plain");
    const first = await plain.deliver(emailMessage(), { key, attempt: 1 });
    const again = await plain.deliver(emailMessage(), { key, attempt: 1 });
    const retry = await plain.deliver(emailMessage(), { key, attempt: 2 });
    expect(first.id).toMatch(/^[0-9a-f]{32}$/);
    expect(again.id).toBe(first.id);
    expect(retry.id).not.toBe(first.id);
    const long = await transportFor("/long-id").deliver(emailMessage(), { key, attempt: 1 });
    expect(long.id).toBe(first.id);
  });
});

describe("verifyWebhookSignature", () => {
  const body = JSON.stringify({ key, message: emailMessage() });
  const now = 1_767_225_600;
  const headers = signWebhookBody(body, secret, { id: key, timestamp: now });
  const other = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;

  it("accepts the body it was signed for, as text or bytes, from a plain object or a Headers", () => {
    expect(verifyWebhookSignature(body, headers, secret, { now })).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), headers, secret, { now })).toBe(true);
    expect(verifyWebhookSignature(body, new Headers({ ...headers }), secret, { now })).toBe(true);
  });

  it("rejects a tampered body, a wrong secret, and a stale or future timestamp", () => {
    const tampered = body.replace("ada.lovelace@example.org", "eve@example.net");
    expect(verifyWebhookSignature(tampered, headers, secret, { now })).toBe(false);
    expect(verifyWebhookSignature(body, headers, other, { now })).toBe(false);
    expect(verifyWebhookSignature(body, headers, secret, { now: now + 301 })).toBe(false);
    expect(verifyWebhookSignature(body, headers, secret, { now: now - 301 })).toBe(false);
    expect(verifyWebhookSignature(body, headers, secret, { now: now + 3600, toleranceSeconds: 3600 })).toBe(
      true,
    );
  });

  it("rejects a signature moved to another timestamp or another message id", () => {
    expect(
      verifyWebhookSignature(body, { ...headers, "webhook-timestamp": String(now + 1) }, secret, { now }),
    ).toBe(false);
    expect(verifyWebhookSignature(body, { ...headers, "webhook-id": "fl_another" }, secret, { now })).toBe(
      false,
    );
  });

  it.each([
    ["missing", {}],
    ["without a signature", { ...headers, "webhook-signature": "" }],
    ["with repeated headers", { ...headers, "webhook-signature": [headers["webhook-signature"], "v1,x"] }],
    ["without an id", { ...headers, "webhook-id": undefined }],
    ["with an id holding a dot", { ...headers, "webhook-id": "fl.1" }],
    ["without a timestamp", { ...headers, "webhook-timestamp": undefined }],
    ["with a timestamp that is not digits", { ...headers, "webhook-timestamp": `${now}.5` }],
    [
      "with another scheme's signature",
      { ...headers, "webhook-signature": headers["webhook-signature"].replace("v1,", "v1a,") },
    ],
    ["with a short signature", { ...headers, "webhook-signature": "v1,abc=" }],
    ["garbage", { ...headers, "webhook-signature": "definitely not a signature" }],
  ])("returns false for headers %s", (_, value) => {
    expect(verifyWebhookSignature(body, value, secret, { now })).toBe(false);
  });

  it("returns false for no headers at all", () => {
    expect(verifyWebhookSignature(body, undefined, secret, { now })).toBe(false);
    expect(verifyWebhookSignature(body, null, secret, { now })).toBe(false);
  });

  it("signs with each secret during a rotation; either verifies", () => {
    const both = signWebhookBody(body, [other, secret], { id: key, timestamp: now });
    expect(both["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verifyWebhookSignature(body, both, secret, { now })).toBe(true);
    expect(verifyWebhookSignature(body, both, other, { now })).toBe(true);
  });

  it("refuses an empty or malformed secret: that is a configuration mistake, not a bad request", () => {
    for (const bad of ["", "not-a-whsec-secret", "whsec_"])
      expect(() => verifyWebhookSignature(body, headers, bad)).toThrow(
        expect.objectContaining({ code: "transport_invalid" }),
      );
  });
});
