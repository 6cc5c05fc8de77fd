import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerError } from "smtp-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DeliveryError, isRetryable } from "../../src/transport/index.js";
import {
  type SmtpTransport,
  type SmtpTransportOptions,
  smtpTransport,
} from "../../src/transport/smtp/index.js";
import { emailMessage, key, smsMessage } from "./messages.js";

interface Received {
  readonly mailFrom: string | false;
  readonly rcptTo: readonly string[];
  readonly raw: Buffer;
}

let smtp: SMTPServer;
let smtpPort: number;
let received: Received[] = [];
let connections = 0;

// An HTTP server an <img> in the HTML points at: any request to it means the transport fetched remote content.
let pixel: Server;
let pixelPort: number;
let pixelRequests = 0;

function rejection(responseCode: number, text: string): SMTPServerError {
  return Object.assign(new Error(text), { responseCode });
}

beforeAll(async () => {
  smtp = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 200,
    onConnect(_client, callback) {
      connections += 1;
      callback();
    },
    // The recipient's local part picks the server's answer.
    onRcptTo(address, _client, callback) {
      if (address.address.startsWith("bounce")) return callback(rejection(550, "No such user here"));
      if (address.address.startsWith("greylist")) return callback(rejection(451, "Try again later"));
      return callback();
    },
    onData(stream, client, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          mailFrom: client.envelope.mailFrom === false ? false : client.envelope.mailFrom.address,
          rcptTo: client.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
  });
  smtp.listen(0, "127.0.0.1");
  await once(smtp.server, "listening");
  smtpPort = (smtp.server.address() as AddressInfo).port;

  pixel = createServer((_request, response) => {
    pixelRequests += 1;
    response.end();
  });
  pixel.listen(0, "127.0.0.1");
  await once(pixel, "listening");
  pixelPort = (pixel.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  pixel.close();
  await once(pixel, "close");
});

const open: SmtpTransport[] = [];

function transport(overrides: Partial<SmtpTransportOptions> = {}): SmtpTransport {
  const created = smtpTransport({
    host: "127.0.0.1",
    port: smtpPort,
    secure: false,
    requireTLS: false,
    from: "Example Clinic <reminders@clinic.example.com>",
    timeoutMs: 5000,
    ...overrides,
  });
  open.push(created);
  return created;
}

beforeEach(() => {
  received = [];
  connections = 0;
  pixelRequests = 0;
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function failure(promise: Promise<unknown>): Promise<DeliveryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return error as DeliveryError;
}

describe("smtpTransport: what is sent", () => {
  it("sends one recipient, the template's subject, text and HTML, and nothing else", async () => {
    const message = emailMessage();
    const receipt = await transport().deliver(message, { key, attempt: 1 });
    expect(received).toHaveLength(1);
    const mail = received[0] as Received;
    expect(mail.rcptTo).toEqual(["ada.lovelace@example.org"]);
    expect(mail.mailFrom).toBe("reminders@clinic.example.com");

    const parsed = await simpleParser(mail.raw);
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.text?.trimEnd()).toBe(message.text);
    expect(parsed.html).toBe(message.html);
    expect(parsed.from?.value).toEqual([{ name: "Example Clinic", address: "reminders@clinic.example.com" }]);
    expect(parsed.to).toEqual(expect.objectContaining({ value: [{ name: "", address: message.to }] }));
    expect(parsed.attachments).toEqual([]);
    for (const header of ["cc", "bcc", "reply-to", "x-mailer", "sender"])
      expect(parsed.headers.has(header)).toBe(false);
    expect(parsed.messageId).toBe(`<${key}@clinic.example.com>`);
    expect(receipt).toEqual({ id: `<${key}@clinic.example.com>` });
  });

  it("sends text only when the template has no HTML", async () => {
    const { html: _, ...plain } = emailMessage();
    await transport().deliver(plain, { key, attempt: 1 });
    const parsed = await simpleParser((received[0] as Received).raw);
    expect(parsed.html).toBe(false);
    expect(parsed.text?.trimEnd()).toBe(plain.text);
    expect(parsed.attachments).toEqual([]);
  });

  it("keeps the same Message-ID on a retry, so a duplicate is recognisable", async () => {
    const t = transport();
    const first = await t.deliver(emailMessage(), { key, attempt: 1 });
    const second = await t.deliver(emailMessage(), { key, attempt: 2 });
    expect(second.id).toBe(first.id);
    const other = await t.deliver(emailMessage(), { key: "fl_another", attempt: 1 });
    expect(other.id).not.toBe(first.id);
    // A key that is not a safe Message-ID part is hashed, still the same on every attempt.
    const odd = await t.deliver(emailMessage(), { key: "ticket 7/<x>", attempt: 1 });
    expect(odd.id).toMatch(/^<k\.[0-9a-f]{32}@clinic\.example\.com>$/);
    expect((await t.deliver(emailMessage(), { key: "ticket 7/<x>", attempt: 2 })).id).toBe(odd.id);
  });

  it("delivers an <img> pointing at a URL as written, and fetches nothing", async () => {
    const src = `http://127.0.0.1:${pixelPort}/pixel.png`;
    const html = `<p>Hello</p><img src="${src}" alt="">`;
    await transport().deliver(emailMessage({ html }), { key, attempt: 1 });
    const parsed = await simpleParser((received[0] as Received).raw);
    expect(parsed.html).toBe(html);
    expect(parsed.attachments).toEqual([]);
    expect(pixelRequests).toBe(0);
  });

  it("sends to the normalised recipient address", async () => {
    await transport().deliver(emailMessage({ to: "Ada.Lovelace@Example.org" }), { key, attempt: 1 });
    expect((received[0] as Received).rcptTo).toEqual(["ada.lovelace@example.org"]);
  });

  it("refuses a recipient list or a non-email channel without connecting", async () => {
    const t = transport();
    for (const message of [
      emailMessage({ to: "ada.lovelace@example.org, eve@example.net" }),
      emailMessage({ to: "Eve <eve@example.net>" }),
      smsMessage(),
    ]) {
      const error = await failure(t.deliver(message, { key, attempt: 1 }));
      expect(error.retryable).toBe(false);
    }
    expect(connections).toBe(0);
    expect(received).toEqual([]);
  });
});

describe("smtpTransport: failures", () => {
  it("maps a 550 rejection of the recipient to a permanent error", async () => {
    const error = await failure(
      transport().deliver(emailMessage({ to: "bounce@example.org" }), { key, attempt: 1 }),
    );
    expect(error.retryable).toBe(false);
    expect(isRetryable(error)).toBe(false);
    expect(error.code).toBe("delivery_failed");
    expect(error.message).toMatch(/550.*No such user here/);
    expect(received).toEqual([]);
  });

  it("maps a 451 rejection to a retryable error", async () => {
    const error = await failure(
      transport().deliver(emailMessage({ to: "greylist@example.org" }), { key, attempt: 1 }),
    );
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/451/);
  });

  it("maps a server that is down to a retryable error", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port } = closed.address() as AddressInfo;
    closed.close();
    await once(closed, "close");
    const error = await failure(transport({ port }).deliver(emailMessage(), { key, attempt: 1 }));
    expect(error.retryable).toBe(true);
  });

  it("refuses to send in clear text by default when the server offers no STARTTLS", async () => {
    const t = smtpTransport({
      host: "127.0.0.1",
      port: smtpPort,
      secure: false,
      from: "reminders@clinic.example.com",
    });
    open.push(t);
    const error = await failure(t.deliver(emailMessage(), { key, attempt: 1 }));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/STARTTLS/);
    expect(received).toEqual([]);
  });
});

describe("smtpTransport: creation", () => {
  it.each([
    ["not an address", "no-reply"],
    ["two addresses", "a@example.com, b@example.com"],
    ["a header injection", "Clinic\r\nBcc: eve@example.net <a@example.com>"],
    ["two bracketed addresses", "<a@example.com> <b@example.com>"],
    ["a quoted display name", '"Eve, Inc" <a@example.com>'],
    ["an empty string", ""],
  ])("rejects a from that is %s", (_, from) => {
    expect(() => smtpTransport({ host: "127.0.0.1", port: 25, secure: false, from })).toThrow(
      expect.objectContaining({ code: "transport_invalid", message: expect.stringContaining("from") }),
    );
  });

  it.each([
    ["a port out of range", { port: 70_000 }, /port/],
    ["an empty host", { host: " " }, /host/],
    ["a zero timeout", { timeoutMs: 0 }, /timeoutMs/],
  ])("rejects %s", (_, overrides, message) => {
    const options = { host: "127.0.0.1", port: 25, secure: false, from: "a@example.com", ...overrides };
    expect(() => smtpTransport(options)).toThrow(
      expect.objectContaining({ code: "transport_invalid", message: expect.stringMatching(message) }),
    );
  });

  it("names itself for the audit log", async () => {
    expect(transport().name).toBe("smtp");
    expect(transport({ name: "support-mail" }).name).toBe("support-mail");
  });
});
