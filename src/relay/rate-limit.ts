/**
 * Options of the relay's per-token rate limit.
 *
 * @example
 * import { createRelay } from "formletter/relay";
 * createRelay({ ...parts, secret, rateLimit: { max: 30, windowMs: 10_000 } });
 */
export interface RateLimitOptions {
  /** Requests one token may make per window. @default 120 */
  readonly max?: number;
  /** The window, in milliseconds. @default 60000 */
  readonly windowMs?: number;
}

/** What the limiter says about one more request. */
export type RateDecision =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /** Milliseconds until the window ends. */
      readonly retryAfterMs: number;
      /** True for the first refusal of this token in this window: the one worth an audit event. */
      readonly first: boolean;
    };

/**
 * A fixed-window counter per token id, the windows aligned to the clock (0–60 s, 60–120 s, …). When a
 * window ends its counts are dropped whole, so the cost of a request stays the same however many tokens
 * are in use, and memory holds only the tokens seen in the current window. A burst across a window's
 * end may reach twice `max`; a limit meant against a flood, not an exact quota.
 */
export function createRateLimiter(max: number, windowMs: number, clock: () => number) {
  let window = -1;
  let counts = new Map<string, number>();
  return (key: string): RateDecision => {
    const now = clock();
    const current = Math.floor(now / windowMs);
    if (current !== window) {
      window = current;
      counts = new Map();
    }
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (count <= max) return { ok: true };
    return { ok: false, retryAfterMs: (current + 1) * windowMs - now, first: count === max + 1 };
  };
}
