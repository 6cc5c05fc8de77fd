import { createVerify } from "node:crypto";
import { FormletterError } from "../../core/errors.js";
import { requirePeer } from "../../core/peer-dependency.js";
import { type DeliveryEvent, deliveryEvent, eventCodeOf, eventIdOf, eventTimeOf } from "./delivery-event.js";
import {
  bodyJson,
  type EventVerifier,
  field,
  malformed,
  signatureRefused,
  type Verified,
  verified,
} from "./verifier.js";

/** Options of {@link sesEvents}. */
export interface SesEventsOptions {
  /** The SNS topics SES publishes to, by ARN: a message of any other topic is refused, signed or not. */
  readonly topicArns: readonly string[];
  /** How old a message's signed `Timestamp` may be, in seconds (SNS retries for up to an hour). @default 3600 */
  readonly maxAgeSeconds?: number;
  /**
   * Where signing certificates come from, given a URL already checked to be SNS's own (https, a host
   * `sns.<region>.amazonaws.com`, a `.pem` path). By default `sns-validator` fetches and checks it; a
   * function here (a cache, a proxy, a test's key) makes formletter check the signature itself, the
   * documented way, with the PEM it returns.
   */
  readonly certificate?: (url: URL) => Promise<string>;
  /**
   * Confirms a subscription of a configured topic, given its `SubscribeURL` (checked to be SNS's own).
   * By default a GET without redirects, bounded to 10 s.
   */
  readonly confirmSubscription?: (url: URL) => Promise<void>;
}

// SNS's own hosts, as sns-validator and AWS's documentation define them.
const snsHost = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

// The fields signed, in this order, per message type (AWS: "Verifying the signatures of Amazon SNS messages").
const signedFields: Readonly<Record<string, readonly string[]>> = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: [
    "Message",
    "MessageId",
    "SubscribeURL",
    "Timestamp",
    "Token",
    "TopicArn",
    "Type",
  ],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
};

/** An https URL on one of SNS's hosts, with no credentials or port, else undefined. */
export function snsUrl(value: unknown, pem: boolean): URL | undefined {
  if (typeof value !== "string") return undefined;
  try {
    const url = new URL(value);
    const ok =
      url.protocol === "https:" &&
      url.username === "" &&
      url.password === "" &&
      url.port === "" &&
      snsHost.test(url.hostname) &&
      (!pem || url.pathname.endsWith(".pem"));
    return ok ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Amazon SES's bounce, complaint and delivery notifications, through SNS, verified as AWS documents: the
 * topic must be one configured, the signing certificate's URL one of SNS's own hosts (a URL elsewhere is
 * refused before anything is fetched), the RSA signature (SignatureVersion 1: SHA-1, 2: SHA-256) valid
 * over the documented fields, and the signed timestamp no older than `maxAgeSeconds`. A subscription
 * confirmation is confirmed only for a configured topic and only at SNS's own URL.
 *
 * @example
 * import { sesEvents } from "formletter/relay";
 * const ses = sesEvents({ topicArns: ["arn:aws:sns:eu-west-1:123456789012:ses-events"] });
 */
export function sesEvents(options: SesEventsOptions): EventVerifier {
  const topics = new Set(Array.isArray(options?.topicArns) ? options.topicArns : []);
  if (topics.size === 0 || ![...topics].every((arn) => typeof arn === "string" && arn.startsWith("arn:aws")))
    throw new FormletterError(
      "transport_invalid",
      'sesEvents: topicArns must list the SNS topics SES publishes to, e.g. ["arn:aws:sns:eu-west-1:123456789012:ses-events"]',
    );
  const maxAge = options.maxAgeSeconds ?? 3600;
  const confirm = options.confirmSubscription ?? confirmByGet;
  const check = options.certificate === undefined ? checkWithValidator : checkWith(options.certificate);
  return {
    provider: "ses",
    async verify(request, now): Promise<Verified> {
      const message = bodyJson(request.body);
      const type = field(message, "Type");
      if (typeof type !== "string" || !Object.hasOwn(signedFields, type)) return signatureRefused;
      const signed = signedFields[type] as readonly string[];
      for (const name of [...signed, "Signature", "SigningCertURL", "SignatureVersion"]) {
        const value = field(message, name);
        if (value !== undefined && typeof value !== "string") return signatureRefused;
      }
      const topic = field(message, "TopicArn") as string;
      if (!topics.has(topic)) return signatureRefused;
      // SNS signs with a certificate of the topic's own region: any other host is refused unfetched, so
      // a forged message cannot make the relay fetch from every SNS region in turn.
      const region = `sns.${topic.split(":")[3] ?? ""}.`;
      const certificate = snsUrl(field(message, "SigningCertURL"), true);
      if (certificate === undefined || !certificate.hostname.startsWith(region)) return signatureRefused;
      const at = eventTimeOf(field(message, "Timestamp"), "iso");
      if (at === undefined || now - at > maxAge * 1000 || at - now > 300_000) return signatureRefused;
      if (!(await check(message as Record<string, string>, certificate, signed))) return signatureRefused;
      if (type === "SubscriptionConfirmation") {
        const subscribe = snsUrl(field(message, "SubscribeURL"), false);
        if (subscribe === undefined || !subscribe.hostname.startsWith(region)) return malformed;
        await confirm(subscribe);
        return verified([]);
      }
      if (type === "UnsubscribeConfirmation") return verified([]);
      const eventId = eventIdOf(field(message, "MessageId"));
      const ses = parse(field(message, "Message"));
      if (eventId === undefined || ses === undefined) return malformed;
      const event = eventOf(ses, eventId);
      return event === "malformed" ? malformed : verified([event]);
    },
  };
}

/** The documented check with a certificate from `source`. */
function checkWith(source: (url: URL) => Promise<string>) {
  return async (message: Record<string, string>, url: URL, signed: readonly string[]): Promise<boolean> => {
    const version = message.SignatureVersion;
    if (version !== "1" && version !== "2") return false;
    const verifier = createVerify(version === "1" ? "RSA-SHA1" : "RSA-SHA256");
    for (const name of signed) {
      const value = message[name];
      if (value !== undefined) verifier.update(`${name}\n${value}\n`, "utf8");
    }
    try {
      return verifier.verify(await source(url), message.Signature ?? "", "base64");
    } catch {
      return false;
    }
  };
}

interface MessageValidator {
  validate(message: object, done: (error: Error | null) => void): void;
}

/** sns-validator's check: its own host rule, certificate fetch and signature check. */
async function checkWithValidator(message: Record<string, string>): Promise<boolean> {
  const Validator = requirePeer<new () => MessageValidator>(
    "sns-validator",
    "verifying SES events (sesEvents)",
  );
  return new Promise((resolve) => {
    // A copy: the validator adds keys to the message it is given.
    new Validator().validate({ ...message }, (error) => resolve(error === null || error === undefined));
  });
}

async function confirmByGet(url: URL): Promise<void> {
  const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(10_000) });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`SNS answered ${response.status} to the subscription confirmation`);
}

function parse(text: unknown): unknown {
  if (typeof text !== "string") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The delivery event of an SES notification or event, undefined for a kind not recorded. */
function eventOf(ses: unknown, eventId: string): DeliveryEvent | undefined | "malformed" {
  const kind = field(ses, "notificationType") ?? field(ses, "eventType");
  const messageId = eventIdOf(field(field(ses, "mail"), "messageId"));
  if (typeof kind !== "string" || messageId === undefined) return "malformed";
  const base = { provider: "ses" as const, eventId, messageId };
  switch (kind) {
    case "Delivery":
      return deliveryEvent({
        ...base,
        status: "delivered",
        at: eventTimeOf(field(field(ses, "delivery"), "timestamp"), "iso"),
      });
    case "Bounce": {
      const bounce = field(ses, "bounce");
      const recipients = field(bounce, "bouncedRecipients");
      const first = Array.isArray(recipients) ? recipients[0] : undefined;
      return deliveryEvent({
        ...base,
        status: "bounced",
        // Permanent: the address does not exist or refuses; Transient and Undetermined may pass later.
        bounce: field(bounce, "bounceType") === "Permanent" ? "hard" : "soft",
        code: eventCodeOf(field(first, "status")),
        at: eventTimeOf(field(bounce, "timestamp"), "iso"),
      });
    }
    case "Complaint":
      return deliveryEvent({
        ...base,
        status: "complained",
        at: eventTimeOf(field(field(ses, "complaint"), "timestamp"), "iso"),
      });
    case "Reject":
    case "RenderingFailure":
      return deliveryEvent({ ...base, status: "failed" });
    default:
      return undefined;
  }
}
