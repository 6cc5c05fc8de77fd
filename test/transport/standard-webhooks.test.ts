import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { transportsFromEnv } from "../../src/cli/serve.js";
import { signWebhookBody, verifyWebhookSignature, webhookTransport } from "../../src/transport/index.js";
import { emailMessage, key, smsMessage } from "./messages.js";

// Receivers verify formletter's webhooks with a Standard Webhooks library: here the reference one
// (`standardwebhooks` on npm), given only the secret, the raw body and the request's headers.

const secret = `whsec_${Buffer.from("formletter standard webhooks test key!!").toString("base64")}`;
const rotated = `whsec_${Buffer.alloc(32, 0xa5).toString("base64")}`;

interface Delivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let server: Server;
let url: string;
let deliveries: Delivery[] = [];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    deliveries.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
    response.writeHead(200, { "content-type": "application/json" }).end('{"id":"r1"}');
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  deliveries = [];
});

/** The three Standard Webhooks headers of a delivery, as a receiver passes them on. */
const standardHeaders = (delivery: Delivery) => ({
  "webhook-id": String(delivery.headers["webhook-id"]),
  "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
  "webhook-signature": String(delivery.headers["webhook-signature"]),
});

describe("webhook deliveries verify with the standardwebhooks package", () => {
  it("verifies a delivery, whose webhook-id is the idempotency key, the same on a retry", async () => {
    const transport = webhookTransport({ url, allowHosts: ["127.0.0.1"], secret });
    await transport.deliver(emailMessage(), { key, attempt: 1 });
    await transport.deliver(emailMessage(), { key, attempt: 2 });
    expect(deliveries).toHaveLength(2);
    for (const delivery of deliveries) {
      const payload = new Webhook(secret).verify(delivery.body, standardHeaders(delivery));
      expect(payload).toEqual({ key, message: expect.objectContaining({ to: emailMessage().to }) });
      expect(delivery.headers["webhook-id"]).toBe(key);
      expect(Math.abs(Number(delivery.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    }
  });

  it("fails verification for a changed body or another secret", async () => {
    await webhookTransport({ url, allowHosts: ["127.0.0.1"], secret }).deliver(smsMessage(), {
      key,
      attempt: 1,
    });
    const [delivery] = deliveries;
    if (delivery === undefined) throw new Error("nothing delivered");
    const changed = delivery.body.replace(smsMessage().to, "+15550100000");
    expect(() => new Webhook(secret).verify(changed, standardHeaders(delivery))).toThrow();
    expect(() => new Webhook(rotated).verify(delivery.body, standardHeaders(delivery))).toThrow();
  });

  it("while rotating secrets, signs with both: receivers with either verify", async () => {
    await webhookTransport({ url, allowHosts: ["127.0.0.1"], secret: [secret, rotated] }).deliver(
      smsMessage(),
      {
        key,
        attempt: 1,
      },
    );
    const [delivery] = deliveries;
    if (delivery === undefined) throw new Error("nothing delivered");
    expect(new Webhook(secret).verify(delivery.body, standardHeaders(delivery))).toBeTruthy();
    expect(new Webhook(rotated).verify(delivery.body, standardHeaders(delivery))).toBeTruthy();
  });

  it("agrees with the package both ways: its signatures verify here, and ours there", () => {
    const body = JSON.stringify({ key, message: smsMessage() });
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    const theirs = {
      "webhook-id": key,
      "webhook-timestamp": String(at.getTime() / 1000),
      "webhook-signature": new Webhook(secret).sign(key, at, body),
    };
    expect(verifyWebhookSignature(body, theirs, secret)).toBe(true);
    const ours = signWebhookBody(body, secret, { id: key, timestamp: at.getTime() / 1000 });
    expect(ours).toEqual(theirs);
  });
});

describe("formletter serve: WEBHOOK_SECRET", () => {
  const io = { stdout: () => undefined, stderr: () => undefined };
  const env = { WEBHOOK_URL: "https://hooks.example.com/in" };

  it("takes a Standard Webhooks secret, or several separated by spaces while rotating", async () => {
    for (const WEBHOOK_SECRET of [secret, `${secret} ${rotated}`]) {
      const { summary } = await transportsFromEnv({ ...env, WEBHOOK_SECRET }, new Set(["sms"]), io);
      expect(summary).toBe("sms=webhook");
    }
  });

  it("refuses another kind of secret at start-up, saying how to make one", async () => {
    await expect(
      transportsFromEnv(
        { ...env, WEBHOOK_SECRET: "a-long-enough-plain-secret-0123456789" },
        new Set(["sms"]),
        io,
      ),
    ).rejects.toThrow(
      /^WEBHOOK_\*: webhookTransport: the secret must be a Standard Webhooks secret, "whsec_"/,
    );
  });
});
