/**
 * Every error body the relay sends is built here, from a typed issue: a code, where in the request the
 * fault is (named by the keys of the relay's own schemas, or by position and kind where the caller chose
 * the key), and what was expected (a kind, numbers, the schema's own values). Nothing a request carried
 * can be a part of it: no route passes text, and a zod issue is read for its typed fields, never its
 * message (which quotes unknown keys).
 */
import { z } from "zod";
import { visibleNameRule } from "../core/visible-name.js";
import type { ErrorCode, SuppressionCauseCode } from "./reply-schemas.js";

declare const fromSchema: unique symbol;

/** Text read from a schema the relay defines (a key, an enum value, a description), never from a request. */
export type SchemaText = string & { readonly [fromSchema]: true };

/** The part of a request a refused value is in. */
export type RequestPart = "body" | "query" | "token";

/** A place the caller's own key leads to, described by what it is, never by the key. */
export type Position = "a key" | "a value" | "an element" | "a field it does not declare";

/** One step from the part's root: a key the schema declares, or a position. */
export type Step = { readonly key: SchemaText } | { readonly position: Position };

/** Where the fault is. */
export interface Place {
  readonly part: RequestPart;
  readonly steps: readonly Step[];
}

/** JSON kinds a value may have been expected to be. */
export type JsonKind = "a string" | "a number" | "an object" | "an array" | "true or false" | "another type";

/** What would have been accepted at the place. */
export type Expectation =
  | { readonly kind: "present" }
  | { readonly kind: "absent"; readonly allowed: readonly SchemaText[] }
  | { readonly kind: "type"; readonly type: JsonKind }
  | { readonly kind: "one of"; readonly values: readonly SchemaText[] }
  | { readonly kind: "length"; readonly min?: number | undefined; readonly max?: number | undefined }
  | { readonly kind: "entries"; readonly max: number }
  | { readonly kind: "form"; readonly description?: SchemaText | undefined }
  | { readonly kind: "instant" }
  | { readonly kind: "name" }
  | { readonly kind: "bytes"; readonly max: number };

/** A refusal, as typed facts. */
export interface Issue {
  readonly code: ErrorCode;
  readonly place?: Place | undefined;
  readonly expected?: Expectation | undefined;
  /** With `recipient_suppressed`: why the recipient is suppressed, from the relay's own list. */
  readonly suppression?: { readonly cause: SuppressionCauseCode } | undefined;
}

const base: Readonly<Record<ErrorCode, string>> = {
  token_missing: "send the token as Authorization: Bearer <token>",
  token_invalid: "the token is not valid for this relay",
  token_expired: "the token has expired; ask for a new one",
  token_revoked: "the token was revoked; its run is over",
  wrong_audience: "this token is not for this endpoint",
  ticket_mismatch: "the token is for another ticket or run; the ticket and run come from the token only",
  session_mismatch: "the session belongs to another token; initialize a new session with this one",
  origin_refused:
    "requests from this Origin are not allowed; a browser page may call the relay only from an origin it allows",
  method_not_allowed: "this endpoint does not serve this method; see the Allow header",
  rate_limited: "too many requests with this token; retry after the time in Retry-After",
  unsupported_media_type: "send the body as application/json",
  body_too_large: "the body is too large",
  body_malformed: "the body is not valid JSON",
  body_invalid: "the body does not have the expected shape",
  signature_invalid:
    "the request is not signed as its provider signs it with the key this relay holds, or its timestamp is too old; nothing was recorded",
  request_invalid: "the request is not valid",
  actor_invalid: "the token does not name a person the queue can record",
  records_unavailable: "this ticket's records could not be loaded; try again later",
  template_not_offered: "that template is not offered for this ticket",
  not_implemented: "this relay's catalog cannot build tools",
  queue_item_not_found: "no queue item has this id; list the queue again",
  queue_transition_invalid:
    "the item's status does not allow this action: someone may have acted on it; read it again",
  recipient_suppressed:
    "the draft's recipient is suppressed (a hard bounce or a complaint): nothing was sent and the item still waits; lift the suppression, then approve again",
  unavailable: "the relay cannot do this right now; retrying is safe",
  timeout: "the request took too long; retrying the same request is safe",
  not_found: "no such endpoint",
  internal: "the relay could not answer this request",
};

const roots: Readonly<Record<RequestPart, { root: string; named: string }>> = {
  body: { root: "the body", named: "field" },
  query: { root: "the query", named: "query parameter" },
  token: { root: "the token", named: "token claim" },
};

/** "field tags", "a key of field tags", "a field the body does not declare". */
function placeText(place: Place): string {
  const { root, named } = roots[place.part];
  let outer: string | undefined;
  let keys: string[] = [];
  const current = () =>
    keys.length === 0
      ? (outer ?? root)
      : `${named} ${keys.join(".")}${outer === undefined ? "" : ` of ${outer}`}`;
  for (const step of place.steps) {
    if ("key" in step) {
      keys.push(step.key);
      continue;
    }
    const where = current();
    outer =
      step.position === "a field it does not declare"
        ? `a field ${where} does not declare`
        : `${step.position} of ${where}`;
    keys = [];
  }
  return current();
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? "" : "s"}`;

function expectationText(expected: Expectation): string {
  switch (expected.kind) {
    case "present":
      return "is required";
    case "absent":
      return `is not accepted; the fields are ${expected.allowed.join(", ")}`;
    case "type":
      return `must be ${expected.type}`;
    case "one of":
      return `must be one of ${expected.values.join(", ")}`;
    case "length":
      if (expected.min !== undefined && expected.max !== undefined)
        return `must be ${expected.min} to ${plural(expected.max, "character")}`;
      return expected.max !== undefined
        ? `must be no more than ${plural(expected.max, "character")}`
        : `must be no fewer than ${plural(expected.min ?? 1, "character")}`;
    case "entries":
      return `may hold no more than ${expected.max} ${expected.max === 1 ? "entry" : "entries"}`;
    case "form":
      return `is not in its documented form${expected.description === undefined ? "" : `: ${expected.description}`}`;
    case "instant":
      return "must be a time ago (30m, 24h, 7d, 2w), an ISO 8601 date or time, or epoch milliseconds, within the years 0000 to 9999";
    case "name":
      return `must be ${visibleNameRule}`;
    case "bytes":
      return `must be no more than ${expected.max} bytes`;
  }
}

const suppressedBy: Readonly<Record<SuppressionCauseCode, string>> = {
  hard_bounce:
    "the draft's recipient is suppressed (it bounced for good): nothing was sent and the item still waits; lift the suppression, then approve again",
  complaint:
    "the draft's recipient is suppressed (its owner complained): nothing was sent and the item still waits; lift the suppression, then approve again",
};

/** The message of an issue: the code's sentence, then where and what was expected. */
export function messageOf(issue: Issue): string {
  if (issue.code === "recipient_suppressed" && issue.suppression !== undefined)
    return suppressedBy[issue.suppression.cause];
  const detail = [
    issue.place === undefined ? undefined : placeText(issue.place),
    issue.expected === undefined ? undefined : expectationText(issue.expected),
  ].filter((part) => part !== undefined);
  return detail.length === 0 ? base[issue.code] : `${base[issue.code]}: ${detail.join(" ")}`;
}

/** The error body of an issue: `{ error: { code, message } }`, and the cause of a suppression. */
export function errorBody(issue: Issue): {
  error: { code: ErrorCode; message: string; suppression?: { cause: SuppressionCauseCode } };
} {
  const message = messageOf(issue);
  return issue.suppression === undefined
    ? { error: { code: issue.code, message } }
    : { error: { code: issue.code, message, suppression: { cause: issue.suppression.cause } } };
}

// What the walk below needs of a zod schema's definition.
type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  getter?: () => z.ZodType;
  shape?: Record<string, z.ZodType>;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
};

const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;
const wrappers = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);

/** The schema inside wrappers, and the first description met on the way in. */
function unwrap(schema: z.ZodType): { schema: z.ZodType; description: SchemaText | undefined } {
  let current = schema;
  let description: string | undefined;
  for (let depth = 0; depth < 32; depth++) {
    description ??= z.globalRegistry.get(current)?.description;
    const def = defOf(current);
    const inner = wrappers.has(def.type)
      ? def.innerType
      : def.type === "pipe"
        ? def.in
        : def.type === "lazy"
          ? def.getter?.()
          : undefined;
    if (inner === undefined) break;
    current = inner;
  }
  return { schema: current, description: description as SchemaText | undefined };
}

/** Whether `value` has an own property at every step of `path`. */
function present(value: unknown, path: readonly PropertyKey[]): boolean {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) return false;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return true;
}

interface Walked {
  readonly steps: Step[];
  /** The schema at the end of the path, when the walk reached it. */
  readonly schema: z.ZodType | undefined;
  readonly description: SchemaText | undefined;
}

/**
 * Follows `path` through `schema`: a key the schema declares is named; a key the caller chose (a record's
 * key, an index, a key the schema does not have) is described by its position, and never copied.
 */
function walk(schema: z.ZodType, path: readonly PropertyKey[], keyOfRecord = false): Walked {
  const steps: Step[] = [];
  let current: z.ZodType | undefined = schema;
  let description: SchemaText | undefined;
  for (const [index, segment] of path.entries()) {
    if (current === undefined) break;
    const unwrapped = unwrap(current);
    const def = defOf(unwrapped.schema);
    const last = index === path.length - 1;
    if (
      def.type === "object" &&
      typeof segment === "string" &&
      def.shape !== undefined &&
      Object.hasOwn(def.shape, segment)
    ) {
      steps.push({ key: segment as SchemaText });
      current = def.shape[segment];
    } else if (def.type === "record") {
      steps.push({ position: last && keyOfRecord ? "a key" : "a value" });
      current = last && keyOfRecord ? def.keyType : def.valueType;
    } else if (def.type === "array") {
      steps.push({ position: "an element" });
      current = def.element;
    } else {
      steps.push({ position: "a field it does not declare" });
      current = undefined;
    }
  }
  if (current !== undefined) {
    const unwrapped = unwrap(current);
    current = unwrapped.schema;
    description = unwrapped.description;
  }
  return { steps, schema: current, description };
}

const kinds: Readonly<Record<string, JsonKind>> = {
  string: "a string",
  number: "a number",
  int: "a number",
  object: "an object",
  record: "an object",
  array: "an array",
  tuple: "an array",
  boolean: "true or false",
};

// The kinds of expectation a schema may state itself, in a refinement's params.
const stated = (params: unknown): Expectation | undefined => {
  const expected = (params as { expected?: { kind?: unknown; max?: unknown } } | undefined)?.expected;
  if (expected?.kind === "entries" && typeof expected.max === "number")
    return { kind: "entries", max: expected.max };
  return undefined;
};

type ZodIssue = z.core.$ZodIssue;

/** What the zod issue says was expected, from its typed fields only. */
function expectationOf(issue: ZodIssue, walked: Walked, input: unknown): Expectation {
  switch (issue.code) {
    case "invalid_type":
      return present(input, issue.path)
        ? { kind: "type", type: kinds[issue.expected] ?? "another type" }
        : { kind: "present" };
    case "unrecognized_keys": {
      const def = walked.schema === undefined ? undefined : defOf(walked.schema);
      return { kind: "absent", allowed: Object.keys(def?.shape ?? {}) as SchemaText[] };
    }
    case "invalid_value":
      // The values are the schema's own (an enum's options, a literal).
      return { kind: "one of", values: issue.values.map((value) => String(value) as SchemaText) };
    case "too_big":
    case "too_small": {
      const bound = Number(issue.code === "too_big" ? issue.maximum : issue.minimum);
      if (issue.origin === "string")
        return issue.code === "too_big" ? { kind: "length", max: bound } : { kind: "length", min: bound };
      if (issue.code === "too_big" && issue.origin !== "number") return { kind: "entries", max: bound };
      return { kind: "form", description: walked.description };
    }
    case "custom":
      return stated(issue.params) ?? { kind: "form", description: walked.description };
    default:
      return { kind: "form", description: walked.description };
  }
}

/**
 * The issue of a value `schema` refused: the first zod issue, its place named by the schema's keys and
 * by position where the caller chose the key, its expectation from the issue's typed fields.
 */
export function issueOf(
  code: ErrorCode,
  part: RequestPart,
  schema: z.ZodType,
  input: unknown,
  error: { readonly issues: readonly ZodIssue[] } | undefined,
): Issue {
  const first = error?.issues[0];
  if (first === undefined) return { code, place: { part, steps: [] } };
  // A record's key that failed: the nested issue says what a key must be.
  const issue = first.code === "invalid_key" ? (first.issues[0] ?? first) : first;
  const walked = walk(schema, first.path, first.code === "invalid_key");
  const expected = expectationOf(issue as ZodIssue, walked, input);
  const steps =
    first.code === "unrecognized_keys"
      ? [...walked.steps, { position: "a field it does not declare" as const }]
      : walked.steps;
  return { code, place: { part, steps }, expected };
}

/** The place of a key the schema declares, e.g. the query parameter `since` of the report's query. */
export function placeAt<S extends z.ZodObject>(
  part: RequestPart,
  _schema: S,
  key: keyof S["shape"] & string,
): Place {
  return { part, steps: [{ key: key as SchemaText }] };
}
