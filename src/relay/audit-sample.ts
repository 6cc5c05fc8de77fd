/**
 * How the relay audits requests refused for their token (missing, not ours, expired, for another
 * audience). Nothing limits who may send those, and each audit event is a row written to the store, so
 * they are audited in full up to `full` a window, then one in `every`; each audited one says how many
 * refusals went unaudited since the last. All of them are counted in `/metrics`.
 *
 * @example
 * import { createRelay } from "formletter/relay";
 * createRelay({ ...parts, secret, tokenRefusalAudit: { full: 50, every: 100, windowMs: 60_000 } });
 */
export interface TokenRefusalAuditOptions {
  /** Refusals audited in full per window. @default 20 */
  readonly full?: number;
  /** Past `full`, one refusal in this many is audited. @default 100 */
  readonly every?: number;
  /** The window, in milliseconds, aligned to the clock. @default 60000 */
  readonly windowMs?: number;
}

/** Whether to audit one more refusal, and how many went unaudited before it. */
export type AuditChoice = { readonly audit: true; readonly unaudited: number } | { readonly audit: false };

/**
 * A fixed-window sampler: the first `full` refusals of a window are audited, then every `every`-th.
 * Constant memory: two counters.
 */
export function createAuditSampler(
  options: Required<TokenRefusalAuditOptions>,
  clock: () => number,
): () => AuditChoice {
  let window = -1;
  let count = 0;
  let unaudited = 0;
  return () => {
    const current = Math.floor(clock() / options.windowMs);
    if (current !== window) {
      window = current;
      count = 0;
    }
    count += 1;
    if (count <= options.full || (count - options.full) % options.every === 0) {
      const skipped = unaudited;
      unaudited = 0;
      return { audit: true, unaudited: skipped };
    }
    unaudited += 1;
    return { audit: false };
  };
}
