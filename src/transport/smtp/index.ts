/**
 * @module formletter/smtp: an e-mail transport over SMTP, built on nodemailer (an optional peer dependency).
 */

import { createHash } from "node:crypto";
import type nodemailer from "nodemailer";
import type { Message } from "../../core/decision/decision.js";
import { FormletterError } from "../../core/errors.js";
import { normalizeEmail } from "../../core/message/format.js";
import { snippet } from "../../core/message/sanitize.js";
import { requirePeer } from "../../core/peer-dependency.js";
import { parseSender, type Sender } from "../sender.js";
import {
  type DeliveryContext,
  DeliveryError,
  type DeliveryReceipt,
  type Transport,
  timeoutProblem,
} from "../transport.js";

/**
 * Options of {@link smtpTransport}.
 *
 * @example
 * import { smtpTransport } from "formletter/smtp";
 * smtpTransport({ host: "localhost", port: 1025, secure: false, requireTLS: false, from: "dev@example.com" });
 */
export interface SmtpTransportOptions {
  /** The SMTP server (relay or provider), e.g. "smtp.example.com". */
  readonly host: string;
  /** Usually 465 with `secure: true`, or 587 with `secure: false` (STARTTLS). */
  readonly port: number;
  /** TLS from the first byte (port 465). With `false` the connection is upgraded with STARTTLS. */
  readonly secure: boolean;
  /** Password login. @default undefined (no login) */
  readonly auth?: { readonly user: string; readonly pass: string };
  /** The sender: `"support@example.com"` or `"Example Support <support@example.com>"`; checked at creation. */
  readonly from: string;
  /** The transport's name in the audit log. @default "smtp" */
  readonly name?: string;
  /** Limit for connecting, each server reply, and one whole delivery, in milliseconds. @default 30000 */
  readonly timeoutMs?: number;
  /**
   * With `secure: false`, refuse to send unless the server upgrades to TLS (STARTTLS). Turn off only
   * for a local test server. Ignored with `secure: true`, which is TLS already. @default true
   */
  readonly requireTLS?: boolean;
}

/**
 * An SMTP transport; `close()` ends its pooled connections.
 *
 * @example
 * import { smtpTransport } from "formletter/smtp";
 * const email = smtpTransport({ host: "smtp.example.com", port: 465, secure: true, from: "support@example.com" });
 * await email.close();
 */
export interface SmtpTransport extends Transport {
  close(): Promise<void>;
}

function invalid(message: string): never {
  throw new FormletterError("transport_invalid", `smtpTransport: ${message}`);
}

function parseFrom(from: string): Sender {
  const sender = parseSender(from);
  if (sender === undefined) {
    invalid(
      `from ${JSON.stringify(from)} is not one sender address; use "name@example.com" or "Name <name@example.com>"`,
    );
  }
  return sender;
}

function checkOptions(options: SmtpTransportOptions): number {
  if (typeof options.host !== "string" || options.host.trim() === "") invalid("host is empty");
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65_535) {
    invalid(`port must be a whole number from 1 to 65535, got ${String(options.port)}`);
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  const timeoutInvalid = timeoutProblem(timeoutMs);
  if (timeoutInvalid !== undefined) invalid(timeoutInvalid);
  return timeoutMs;
}

// The same key gives the same Message-ID on every attempt, so a retry of a message the server did
// accept (the answer was lost) shows up as a duplicate that receiving systems and humans can spot.
function messageIdFor(key: string, domain: string): string {
  const local = /^[A-Za-z0-9._-]{1,64}$/.test(key)
    ? key
    : `k.${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;
  return `<${local}@${domain}>`;
}

// Failures without an SMTP reply that no retry fixes: credentials missing or refused, settings the
// server or nodemailer rejects. Everything else without a reply (sockets, DNS) may be transient.
const permanentCodes = new Set(["EAUTH", "ENOAUTH", "EOAUTH2", "ECONFIG", "EREQUIRETLS", "EMAXRECIPIENTS"]);

// TLS failures that only a change of settings or of the server's certificate fixes: a certificate that
// is expired, self-signed, for another name or from an unknown issuer, or TLS spoken to a plain port
// (`secure: true` on 587 or 25). Node's codes, kept by nodemailer as `originalCode`.
const tlsSettingCodes =
  /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_(GET|VERIFY)_|ERR_TLS_CERT_ALTNAME_INVALID$|ERR_SSL_WRONG_VERSION_NUMBER$|HOSTNAME_MISMATCH$)/;

interface SmtpFailure {
  readonly code?: unknown;
  readonly originalCode?: unknown;
  readonly responseCode?: unknown;
  readonly response?: unknown;
  readonly command?: unknown;
  readonly name?: unknown;
  readonly message?: unknown;
}

/**
 * Whether an SMTP reply may succeed on another try. RFC 5321: 4yz is transient, 5yz permanent, except
 * 503 (bad sequence of commands), which is about the state of the connection, so a new connection can
 * succeed — but not in answer to STARTTLS or AUTH: there it means the server will not do TLS or this
 * login, as 5xx always does.
 */
function replyRetryable(code: number, command: string): boolean {
  if (code < 500) return true;
  return code === 503 && !/^(STARTTLS|AUTH)\b/i.test(command);
}

function deliveryError(error: unknown, host: string, timeoutMs: number): DeliveryError {
  const failure: SmtpFailure = typeof error === "object" && error !== null ? error : {};
  const where = `smtp ${host}`;
  if (typeof failure.responseCode === "number") {
    const code = failure.responseCode;
    const command = typeof failure.command === "string" ? failure.command : "";
    const reply = typeof failure.response === "string" ? `: ${snippet(failure.response)}` : "";
    const retryable = replyRetryable(code, command);
    const hint =
      !retryable && /^STARTTLS\b/i.test(command)
        ? " (the server does not upgrade to TLS: use its TLS port with secure: true, or, for a local test server only, requireTLS: false)"
        : "";
    return new DeliveryError(
      `${where}: server answered ${code}${command === "" ? "" : ` to ${command}`}${reply}${hint}`,
      { retryable, cause: error },
    );
  }
  if (failure.code === "EABORT" || failure.name === "AbortError") {
    return new DeliveryError(`${where}: not delivered within ${timeoutMs} ms`, {
      retryable: true,
      cause: error,
    });
  }
  const code = typeof failure.code === "string" ? failure.code : "unknown error";
  if (permanentCodes.has(code)) {
    return new DeliveryError(`${where}: ${code}; check the transport's settings (auth, TLS)`, {
      retryable: false,
      cause: error,
    });
  }
  const detail = error instanceof Error ? `: ${snippet(error.message)}` : "";
  if (typeof failure.originalCode === "string" && tlsSettingCodes.test(failure.originalCode)) {
    return new DeliveryError(
      `${where}: TLS failed (${failure.originalCode})${detail}; check host, port and secure (true for port 465, false with STARTTLS on 587), and the server's certificate`,
      { retryable: false, cause: error },
    );
  }
  return new DeliveryError(`${where}: ${code}${detail}`, { retryable: true, cause: error });
}

/**
 * An e-mail transport over SMTP (via nodemailer, pooled). It sends exactly one recipient, the
 * template's subject, text and HTML, and nothing else: no cc, bcc, reply-to, attachments or extra
 * headers; nothing is fetched from a URL or read from a file. The idempotency key becomes the
 * Message-ID, the same on every retry. 4xx replies, timeouts and connection errors are retryable;
 * 5xx replies (503 only to STARTTLS or AUTH), bad credentials, a server that will not do TLS when
 * `requireTLS` asks for it, and a certificate that fails verification are permanent: no retry fixes
 * them, so the message goes to a person at once.
 *
 * @example
 * import { smtpTransport } from "formletter/smtp";
 * const email = smtpTransport({
 *   host: "smtp.example.com",
 *   port: 465,
 *   secure: true,
 *   auth: { user: "support@example.com", pass: process.env.SMTP_PASSWORD ?? "" },
 *   from: "Example Support <support@example.com>",
 * });
 */
export function smtpTransport(options: SmtpTransportOptions): SmtpTransport {
  const from = parseFrom(options.from);
  const timeoutMs = checkOptions(options);
  const domain = from.address.slice(from.address.lastIndexOf("@") + 1);
  const { createTransport } = requirePeer<typeof nodemailer>(
    "nodemailer",
    "the SMTP transport (formletter/smtp)",
  );
  const mailer = createTransport({
    pool: true,
    host: options.host,
    port: options.port,
    secure: options.secure,
    requireTLS: !options.secure && options.requireTLS !== false,
    ...(options.auth === undefined ? {} : { auth: { user: options.auth.user, pass: options.auth.pass } }),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // Forced onto every message: message content can never make the process read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
    maxRecipients: 1,
    // The library prints nothing.
    logger: false,
  });
  const host = options.host;

  return {
    name: options.name ?? "smtp",
    async deliver(message: Message, context: DeliveryContext): Promise<DeliveryReceipt> {
      const to = normalizeEmail(message.to);
      // The recipient came from records, normalised already; a second check keeps a list such as
      // "a@x.org, b@y.org" or "Name <a@x.org>" from ever reaching nodemailer's address parser.
      if (message.channel !== "email" || !to.ok) {
        throw new DeliveryError(
          `smtp ${host}: template "${message.template}" on channel "${message.channel}" has no single e-mail recipient`,
          { retryable: false },
        );
      }
      try {
        const info = await mailer.sendMail({
          from,
          to: { name: "", address: to.value },
          // Set explicitly so the SMTP envelope holds exactly these two addresses, whatever the headers say.
          envelope: { from: from.address, to: [to.value] },
          ...(message.subject === undefined ? {} : { subject: message.subject }),
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
          messageId: messageIdFor(context.key, domain),
          disableFileAccess: true,
          disableUrlAccess: true,
          xMailer: false,
          signal: AbortSignal.timeout(timeoutMs),
        });
        return { id: info.messageId };
      } catch (error) {
        throw deliveryError(error, host, timeoutMs);
      }
    },
    async close() {
      mailer.close();
    },
  };
}
