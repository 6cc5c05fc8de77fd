/** Small HTTP pieces the relay's routes share: JSON answers, error bodies, bearer tokens, deadlines. */
import { merged } from "../core/merged.js";
import { errorBody, type Issue } from "./refusal.js";

// Every answer is data for a program, never a page: no caching, no content sniffing.
const baseHeaders = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
} as const;

/** A JSON answer. */
export function json(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return new Response(JSON.stringify(body), { status, headers: merged(baseHeaders, headers) });
}

/**
 * An error answer: `{ error: { code, message } }`, its message built by {@link errorBody} from the typed
 * issue alone. No route passes text, so nothing a request carried, and nothing internal, reaches a caller.
 */
export function problem(
  status: number,
  issue: Issue,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return json(status, errorBody(issue), headers);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined | null): string | undefined {
  if (typeof header !== "string") return undefined;
  const match = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)[ ]*$/i.exec(header);
  return match?.[1];
}

/** Thrown away by {@link withDeadline} when the work outlasted its deadline. */
export const timedOut: unique symbol = Symbol("timed out");

/**
 * Runs `work` against a deadline. The work is not cancelled (a proposal past its deadline may still
 * commit, and a retry of the same proposal is then a duplicate), but the caller gets its answer in time.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | typeof timedOut> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
