import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from "node:net";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DeliveryError, webhookTransport } from "../../src/transport/index.js";
import { smtpTransport } from "../../src/transport/smtp/index.js";
import { emailMessage, key, smsMessage } from "./messages.js";

// Whether a failure is retried decides whether the outbox tries again for hours or hands the message to
// a person at once: a failure no retry can fix must say so.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A real SMTP server (the smtp-server package) on a free loopback port. */
async function smtpServer(options: SMTPServerOptions): Promise<number> {
  const server = new SMTPServer({ logger: false, closeTimeout: 200, ...options });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  closers.push(() => new Promise((done) => server.close(() => done())));
  return (server.server.address() as AddressInfo).port;
}

/**
 * An SMTP server that answers each command with a scripted reply (250 for the rest): replies that real
 * servers send but smtp-server cannot be made to (a 503 or a 454 to STARTTLS, a 503 to AUTH).
 */
async function scriptedServer(replies: Readonly<Record<string, string>>): Promise<number> {
  const sockets = new Set<Socket>();
  const server: Server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.write("220 scripted ESMTP\r\n");
    let pending = "";
    socket.on("data", (data) => {
      pending += data.toString("latin1");
      for (let end = pending.indexOf("\r\n"); end !== -1; end = pending.indexOf("\r\n")) {
        const verb = (pending.slice(0, end).split(" ")[0] ?? "").toUpperCase();
        pending = pending.slice(end + 2);
        socket.write(`${replies[verb] ?? "250 OK"}\r\n`);
      }
    });
    socket.on("error", () => undefined);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return (server.address() as AddressInfo).port;
}

async function smtpFailure(port: number, options: object = {}): Promise<DeliveryError> {
  const transport = smtpTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    from: "reminders@clinic.example.com",
    timeoutMs: 5000,
    ...options,
  });
  closers.push(() => transport.close());
  const error = await transport.deliver(emailMessage(), { key, attempt: 1 }).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return error as DeliveryError;
}

const ehloWith = (extension: string) => `250-scripted\r\n250 ${extension}`;

describe("smtpTransport: what no retry fixes is permanent", () => {
  it("TLS required, but the server offers no STARTTLS: permanent, and says what to set", async () => {
    const port = await smtpServer({ secure: false, authOptional: true, disabledCommands: ["STARTTLS"] });
    const error = await smtpFailure(port);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/STARTTLS.*secure: true.*requireTLS: false/);
  });

  it("a 503 to STARTTLS is permanent; a 454 (TLS not available for now) is retried", async () => {
    const refused = await smtpFailure(
      await scriptedServer({ EHLO: ehloWith("STARTTLS"), STARTTLS: "503 no TLS here" }),
    );
    expect(refused.retryable).toBe(false);
    const later = await smtpFailure(
      await scriptedServer({
        EHLO: ehloWith("STARTTLS"),
        STARTTLS: "454 TLS not available due to temporary reason",
      }),
    );
    expect(later.retryable).toBe(true);
  });

  it("a certificate that fails verification is permanent", async () => {
    // smtp-server's built-in certificate is self-signed and expired: the STARTTLS handshake fails it.
    const port = await smtpServer({ secure: false, authOptional: true });
    const error = await smtpFailure(port);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/TLS failed \((CERT_|DEPTH_ZERO|SELF_SIGNED)/);
  });

  it("TLS spoken to a plain port (secure: true on a STARTTLS port) is permanent", async () => {
    const port = await smtpServer({ secure: false, authOptional: true, disabledCommands: ["STARTTLS"] });
    const error = await smtpFailure(port, { secure: true });
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/ERR_SSL_WRONG_VERSION_NUMBER.*secure/);
  });

  it("wrong credentials (535), a login refused with 503, and a missing login (530) are permanent", async () => {
    const port = await smtpServer({
      secure: false,
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      onAuth: (_auth, _session, callback) => callback(new Error("Invalid username or password")),
    });
    const wrong = await smtpFailure(port, { requireTLS: false, auth: { user: "u", pass: "p" } });
    expect([wrong.retryable, wrong.message]).toEqual([false, expect.stringMatching(/535/)]);
    const missing = await smtpFailure(port, { requireTLS: false });
    expect([missing.retryable, missing.message]).toEqual([false, expect.stringMatching(/530/)]);
    const sequence = await smtpFailure(
      await scriptedServer({ EHLO: ehloWith("AUTH PLAIN LOGIN"), AUTH: "503 5.5.1 bad sequence" }),
      { requireTLS: false, auth: { user: "u", pass: "p" } },
    );
    expect(sequence.retryable).toBe(false);
  });

  it("a temporary login failure (454) and a 503 to MAIL (a connection in a bad state) are retried", async () => {
    const login = await smtpFailure(
      await scriptedServer({
        EHLO: ehloWith("AUTH PLAIN LOGIN"),
        AUTH: "454 4.7.0 temporary authentication failure",
      }),
      { requireTLS: false, auth: { user: "u", pass: "p" } },
    );
    expect(login.retryable).toBe(true);
    const mail = await smtpFailure(await scriptedServer({ MAIL: "503 5.5.1 send HELO/EHLO first" }), {
      requireTLS: false,
    });
    expect(mail.retryable).toBe(true);
  });
});

describe("webhookTransport: 4xx is permanent, except 408 and 429", () => {
  it.each([
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [408, true],
    [409, false],
    [410, false],
    [413, false],
    [422, false],
    [429, true],
    [500, true],
    [502, true],
    [503, true],
  ])("answers %i: retryable %s", async (status, retryable) => {
    const server = createHttpServer((request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(status).end("no"));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    closers.push(async () => {
      server.closeAllConnections();
      server.close();
    });
    const { port } = server.address() as AddressInfo;
    const transport = webhookTransport({
      url: `http://127.0.0.1:${port}/hook`,
      allowHosts: ["127.0.0.1"],
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    });
    const error = await transport.deliver(smsMessage(), { key, attempt: 1 }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).retryable).toBe(retryable);
    expect((error as DeliveryError).message).toContain(`answered ${status}`);
  });
});
