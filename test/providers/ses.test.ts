import { describe, expect, it } from "vitest";
import { type SesTransportOptions, sesTransport } from "../../src/providers/index.js";
import { emailMessage, key } from "../transport/messages.js";
import { json, type Reply, useLoopback } from "./loopback.js";
import {
  closedPort,
  creationFailure,
  deliveryFailure,
  expectMapped,
  itRefusesLikeEveryProvider,
} from "./shared-cases.js";

const messageId = "010201902b8e1c4e-6f0d0a3c-7e1c-4b6f-9a51-3f4c1a2b9d10-000000";
const loopback = useLoopback(json(200, { MessageId: messageId }));
const credentials = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
};

function transport(overrides: Partial<SesTransportOptions> = {}) {
  return sesTransport({
    region: "eu-west-1",
    credentials,
    from: "Example Clinic <clinic@example.com>",
    configurationSetName: "outbound-events",
    endpoint: `http://127.0.0.1:${loopback().port}`,
    ...overrides,
  });
}

// SES v2 (REST-JSON) names its error in the x-amzn-ErrorType header, with { message } as the body.
function sesError(status: number, name: string, message: string): Reply {
  return json(status, { message }, { "x-amzn-errortype": `${name}:http://internal.amazon.com/` });
}

function failure(reply: Reply, options: Partial<SesTransportOptions> = {}) {
  loopback().reply = () => reply;
  return deliveryFailure(transport(options));
}

function sentBody() {
  return JSON.parse(loopback().received[0]?.body ?? "") as Record<string, unknown>;
}

/** The parts of a raw MIME message: its headers, and each part's decoded content by type. */
function readMime(raw: string) {
  const [head = "", ...rest] = raw.split("\r\n\r\n");
  const decoded = new Map<string, string>();
  for (const [, type, base64] of raw.matchAll(
    /Content-Type: (text\/\w+); charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n([A-Za-z0-9+/=\r\n]+)/g,
  ))
    decoded.set(type ?? "", Buffer.from((base64 ?? "").replace(/\r\n/g, ""), "base64").toString("utf8"));
  return { head, rest, decoded };
}

describe("sesTransport against SES v2's documented API", () => {
  it("POSTs SendEmail to /v2/email/outbound-emails, signed, with simple content, the set and the tags", async () => {
    const message = emailMessage();
    expect(await transport().deliver(message, { key, attempt: 1 })).toEqual({ id: messageId });
    expect(loopback().received).toHaveLength(1);
    const [request] = loopback().received;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v2/email/outbound-emails");
    expect(request?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/ses\/aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}$/,
    );
    expect(sentBody()).toEqual({
      FromEmailAddress: '"Example Clinic" <clinic@example.com>',
      Destination: { ToAddresses: ["ada.lovelace@example.org"] },
      Content: {
        Simple: {
          Subject: { Data: message.subject, Charset: "UTF-8" },
          Body: {
            Text: { Data: message.text, Charset: "UTF-8" },
            Html: { Data: message.html, Charset: "UTF-8" },
          },
        },
      },
      ConfigurationSetName: "outbound-events",
      EmailTags: [
        { Name: "formletter_key", Value: key },
        { Name: "formletter_template", Value: "appointment_reminder" },
      ],
    });
  });

  it("sends a raw MIME message whose parts decode to the decided bytes", async () => {
    const message = emailMessage({
      subject: "Ihr Termin am 2. März — Zimmer B12, bitte pünktlich erscheinen, danke schön",
      text: "Grüße,\r\nline with trailing space \n.\nend",
      locale: "de-DE",
    });
    await transport({ content: "raw", from: "Praxis Müller <praxis@example.com>" }).deliver(message, {
      key,
      attempt: 1,
    });
    const content = sentBody().Content as { Raw: { Data: string } };
    const raw = Buffer.from(content.Raw.Data, "base64").toString("utf8");
    const { head, decoded } = readMime(raw);
    expect(head).toMatch(
      /^From: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <praxis@example\.com>\r\nTo: ada\.lovelace@example\.org\r\n/,
    );
    expect(head).toContain("Content-Language: de-DE");
    expect(head).toMatch(/multipart\/alternative;\r\n boundary="formletter-[0-9a-f]{24}"/);
    // Each header line stays short, and the subject decodes to exactly the decided subject.
    for (const line of head.split("\r\n")) expect(line.length).toBeLessThanOrEqual(78);
    const subject = [...head.matchAll(/=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=/g)]
      .slice(1)
      .map((word) => Buffer.from(word[1] ?? "", "base64"));
    expect(Buffer.concat(subject).toString("utf8")).toBe(message.subject);
    expect(decoded.get("text/plain")).toBe(message.text);
    expect(decoded.get("text/html")).toBe(message.html);
  });

  it("sends a raw message without HTML as one text part, and leaves out a locale that is not a tag", async () => {
    const { html: _, ...plain } = emailMessage({ locale: "de\r\nBcc: eve@example.net" });
    await transport({ content: "raw" }).deliver(plain, { key, attempt: 1 });
    const raw = Buffer.from((sentBody().Content as { Raw: { Data: string } }).Raw.Data, "base64").toString();
    expect(raw).not.toContain("multipart");
    expect(raw).not.toMatch(/Bcc|Content-Language/);
    expect(readMime(raw).decoded.get("text/plain")).toBe(plain.text);
  });

  it("keeps a subject with a line break inside the Subject header of a raw message", async () => {
    const subject = "Hello\r\nBcc: eve@example.net\r\n\r\nforged body";
    await transport({ content: "raw" }).deliver(emailMessage({ subject }), { key, attempt: 1 });
    const raw = Buffer.from((sentBody().Content as { Raw: { Data: string } }).Raw.Data, "base64").toString();
    const { head } = readMime(raw);
    expect(head).not.toMatch(/^Bcc:/im);
    expect(raw).not.toContain("forged body");
    const words = [...head.matchAll(/=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=/g)].map((word) =>
      Buffer.from(word[1] ?? "", "base64"),
    );
    expect(Buffer.concat(words).toString("utf8")).toBe(subject);
  });

  it("sends a body of a megabyte whole", async () => {
    const text = "é".repeat(500_000);
    await transport().deliver(emailMessage({ text }), { key, attempt: 1 });
    const simple = (sentBody().Content as { Simple: { Body: { Text: { Data: string } } } }).Simple;
    expect(simple.Body.Text.Data).toBe(text);
  });

  it("tags a key of other characters with the characters SES allows", async () => {
    await transport().deliver(emailMessage(), { key: "approval:q-1/é", attempt: 1 });
    expect(sentBody().EmailTags).toContainEqual({ Name: "formletter_key", Value: "approval_q-1__" });
  });

  it("sends once: a 429 and a reset connection are not retried by the SDK", async () => {
    expectMapped(
      await failure(sesError(429, "TooManyRequestsException", "Too many requests.")),
      "ses",
      "rate_limited",
      true,
    );
    expect(loopback().received).toHaveLength(1);
    loopback().received.length = 0;
    loopback().reply = () => "reset";
    expectMapped(await deliveryFailure(transport()), "ses", "network", true);
    expect(loopback().received).toHaveLength(1);
  });

  // [status, name, reason, retried, text]; names from SendEmail's and the common AWS errors.
  const cases: readonly [number, string, string, boolean, string][] = [
    [429, "TooManyRequestsException", "rate_limited", true, "Too many requests have been made."],
    [400, "ThrottlingException", "rate_limited", true, "Rate exceeded"],
    [400, "LimitExceededException", "quota_exceeded", false, "Daily message quota exceeded."],
    [400, "AccountSuspendedException", "account_blocked", false, "The account is suspended."],
    [400, "SendingPausedException", "account_blocked", false, "Sending is paused for this account."],
    [400, "MailFromDomainNotVerifiedException", "sender_rejected", false, "MAIL FROM domain not verified."],
    [
      400,
      "MessageRejected",
      "sender_rejected",
      false,
      "Email address is not verified. The following identities failed the check in region EU-WEST-1: clinic@example.com",
    ],
    [400, "MessageRejected", "invalid_request", false, "The message content was rejected."],
    [400, "BadRequestException", "recipient_invalid", false, "Missing final '@domain' in address"],
    [400, "BadRequestException", "invalid_request", false, "Subject is too long."],
    [
      404,
      "NotFoundException",
      "invalid_request",
      false,
      "Configuration set <outbound-events> does not exist.",
    ],
    [
      403,
      "UnrecognizedClientException",
      "auth_failed",
      false,
      "The security token included in the request is invalid.",
    ],
    [
      403,
      "InvalidSignatureException",
      "auth_failed",
      false,
      "The request signature we calculated does not match.",
    ],
    [403, "AccessDeniedException", "auth_failed", false, "User is not authorized to perform ses:SendEmail."],
    [500, "InternalServiceErrorException", "server_error", true, "Internal error."],
    [503, "ServiceUnavailable", "server_error", true, "Service unavailable."],
  ];

  it.each(cases)("maps %i %s", async (status, name, reason, retryable, text) => {
    const error = await failure(sesError(status, name, text));
    expectMapped(error, "ses", reason, retryable);
    expect(error.status).toBe(status);
    expect(error.providerCode).toBe(name);
  });

  it("maps a 502 that is not JSON as a server error, retried", async () => {
    expectMapped(
      await failure({ status: 502, body: "<html>Bad Gateway</html>" }),
      "ses",
      "server_error",
      true,
    );
  });

  it.each([
    ["not JSON", { status: 200, body: "<html>OK</html>" }],
    ["JSON without a MessageId", json(200, { other: 1 })],
  ])("hands a 200 %s to a person: the message may have been sent", async (_name, reply) => {
    expectMapped(await failure(reply), "ses", "unconfirmed", false);
  });

  it("bounds a request that gets no answer by timeoutMs, retryable", async () => {
    expectMapped(await failure("hang", { timeoutMs: 150 }), "ses", "timeout", true);
  });

  it("reports a refused connection as a retryable network failure", async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    expectMapped(await deliveryFailure(transport({ endpoint })), "ses", "network", true);
  });

  it.each([
    ["a region that is a host", { region: "evil.example.com/x" }, /region .* is not an AWS region/],
    ["a configuration set with a space", { configurationSetName: "a b" }, /configurationSetName/],
    ["half a key pair", { credentials: { accessKeyId: "AKID", secretAccessKey: " " } }, /credentials need/],
    ["an unknown content", { content: "mjml" as "raw" }, /content must be "simple" or "raw"/],
  ])("fails at creation on %s, naming the fix", (_name, overrides, pattern) => {
    expect(creationFailure(() => transport(overrides))).toMatch(pattern);
  });

  itRefusesLikeEveryProvider((overrides) => transport(overrides), loopback, "region");
});
