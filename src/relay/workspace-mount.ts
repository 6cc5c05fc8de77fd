import { merged } from "../core/merged.js";
import type { Outbox } from "../outbox/index.js";
import { outboxSource } from "../workspace/source.js";
import {
  createWorkspace,
  type OperatorCheck,
  type Workspace,
  type WorkspaceOptions,
} from "../workspace/workspace.js";
import type { RevocationQuery } from "./gate.js";
import { operatorAudience } from "./tokens.js";
import type { Verification } from "./verify-token.js";

/** The workspace's settings a relay takes (`createRelay({ workspace })`); the rest comes from the relay. */
export type RelayWorkspaceOptions = Omit<
  WorkspaceOptions,
  "source" | "verifyOperator" | "basePath" | "clock"
>;

/**
 * The human queue's web workspace at `/queue` of a relay: the same outbox (store, transports, audit log)
 * and the same operator tokens. A token is checked as the operator endpoints check it, revocation
 * included; a task token verifies under the agent key and is refused as `wrong_audience`.
 */
export function mountWorkspace(parts: {
  readonly outbox: Outbox;
  readonly verify: (token: string, audience: typeof operatorAudience) => Verification;
  readonly revoked: ((token: RevocationQuery) => boolean | Promise<boolean>) | undefined;
  readonly clock: () => number;
  readonly options: RelayWorkspaceOptions;
}): Workspace {
  const verifyOperator = async (token: string): Promise<OperatorCheck> => {
    const verified = parts.verify(token, operatorAudience);
    if (!verified.ok)
      return {
        ok: false,
        refusal: verified.refusal,
        ...(verified.claims ? { audience: verified.claims.audience } : {}),
      };
    const claims = verified.claims;
    if (claims.audience !== operatorAudience) return { ok: false, refusal: "wrong_audience" };
    const check = parts.revoked;
    if (check === undefined) return { ok: true, operator: claims.operator, expiresAt: claims.expiresAt };
    const query = { id: claims.jti, operator: claims.operator };
    let revoked: unknown;
    try {
      revoked = await check(query);
    } catch {
      revoked = undefined;
    }
    // Not known to be good: not used, as at the operator endpoints.
    if (typeof revoked !== "boolean") return { ok: false, refusal: "unavailable" };
    if (revoked) return { ok: false, refusal: "token_revoked" };
    // Asked again on every request of the session, as the operator endpoints ask on every request.
    return {
      ok: true,
      operator: claims.operator,
      expiresAt: claims.expiresAt,
      stillValid: async () => (await check(query)) === false,
    };
  };
  return createWorkspace(
    merged(parts.options, {
      source: outboxSource(parts.outbox),
      verifyOperator,
      basePath: "/queue",
      clock: parts.clock,
    }),
  );
}
