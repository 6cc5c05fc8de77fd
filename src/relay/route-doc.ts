import type { z } from "zod";
import type { ErrorCode } from "./reply-schemas.js";

/** Who may call an endpoint: anyone, an agent with a task token, or a person with an operator token. */
export type RouteAuth = "none" | "task" | "operator";

/** An endpoint's success answer: a JSON body of a schema, or text of a media type. */
export type SuccessReply =
  | { readonly schema: z.ZodType; readonly name: string }
  | { readonly mediaType: string; readonly description: string };

/**
 * What the OpenAPI document says of one endpoint. Every route carries one, so an endpoint cannot be
 * added without saying what it takes and answers.
 */
export interface RouteDoc {
  readonly summary: string;
  readonly description?: string;
  readonly auth: RouteAuth;
  /** The query string, as the route validates it. */
  readonly query?: z.ZodObject;
  /** The JSON body, as the route validates it; `required: false` when an empty body is fine. */
  readonly body?: { readonly schema: z.ZodType; readonly name: string; readonly required: boolean };
  readonly success: SuccessReply;
  /** The error answers this endpoint itself gives, by status, beyond its token's and body's. */
  readonly errors?: Readonly<Partial<Record<number, readonly ErrorCode[]>>>;
}

/** The refusals of the token check, for endpoints behind one. */
export const tokenErrors = {
  401: ["token_missing", "token_invalid", "token_expired", "token_revoked"],
  403: ["wrong_audience"],
  429: ["rate_limited"],
  // A revocation check that cannot answer: the token is not used (RelayOptions.revoked).
  503: ["unavailable"],
} as const satisfies Record<number, readonly ErrorCode[]>;

/** The refusal of an operator token whose subject is not a name the queue can record. */
export const operatorErrors = {
  400: ["actor_invalid"],
} as const satisfies Record<number, readonly ErrorCode[]>;

/** The refusals of the body check, for endpoints that read one. */
export const bodyErrors = {
  400: ["body_malformed", "body_invalid"],
  413: ["body_too_large"],
  415: ["unsupported_media_type"],
} as const satisfies Record<number, readonly ErrorCode[]>;

/** What any endpoint may answer: past the deadline, or a failure it did not foresee. */
export const frameErrors = {
  500: ["internal"],
  503: ["timeout"],
} as const satisfies Record<number, readonly ErrorCode[]>;

/** Error codes by status, merged: each status lists every code any of `sets` gives it. */
export function mergeErrors(
  ...sets: readonly Readonly<Partial<Record<number, readonly ErrorCode[]>>>[]
): Map<number, ErrorCode[]> {
  const merged = new Map<number, ErrorCode[]>();
  for (const set of sets) {
    for (const [status, codes] of Object.entries(set)) {
      const list = merged.get(Number(status)) ?? [];
      for (const code of codes ?? []) if (!list.includes(code)) list.push(code);
      merged.set(Number(status), list);
    }
  }
  return new Map([...merged].sort(([a], [b]) => a - b));
}
