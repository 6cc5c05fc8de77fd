import { type Issue, issueOf, placeAt } from "./refusal.js";
import { proposalRequest } from "./request-schemas.js";
import type { TokenClaims } from "./verify-token.js";

/** A proposal request, checked: the model's output and the tags. The ticket and run are the token's. */
export type ProposalBody =
  | { readonly ok: true; readonly output: unknown; readonly tags: Readonly<Record<string, string>> }
  | {
      readonly ok: false;
      readonly refusal: "body_invalid" | "ticket_mismatch";
      /** Where the fault is and what was expected, in the schema's own terms. */
      readonly detail: Omit<Issue, "code">;
    };

/**
 * Reads `{ output, tags? }` with {@link proposalRequest}, the schema the OpenAPI document shows. A
 * `ticketId` or `runId` in the body is tolerated only when it repeats the token's: one that differs is
 * an agent trying to act on another ticket, refused and audited as such. A refusal is a typed issue:
 * the fields the relay defined by name, anything the caller named by its position, never what was sent.
 */
export function readProposalBody(
  value: unknown,
  claims: Extract<TokenClaims, { audience: "formletter-agent" }>,
): ProposalBody {
  const parsed = proposalRequest.safeParse(value);
  const invalid = (): ProposalBody => {
    const { code: _, ...detail } = issueOf("body_invalid", "body", proposalRequest, value, parsed.error);
    return { ok: false, refusal: "body_invalid", detail };
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return invalid();
  if (!parsed.success && parsed.error.issues[0]?.code === "unrecognized_keys") return invalid();
  const body = value as Record<string, unknown>;
  // Checked before the shape: another ticket's id is a mismatch whatever its type.
  if (
    (Object.hasOwn(body, "ticketId") && body.ticketId !== claims.ticketId) ||
    (Object.hasOwn(body, "runId") && body.runId !== claims.runId)
  ) {
    return { ok: false, refusal: "ticket_mismatch", detail: {} };
  }
  if (!Object.hasOwn(body, "output")) {
    const place = placeAt("body", proposalRequest, "output");
    return { ok: false, refusal: "body_invalid", detail: { place, expected: { kind: "present" } } };
  }
  if (!parsed.success) return invalid();
  // The tags as sent, copied by entries: a tag named __proto__ stays an own property, as it was checked.
  const tags = (body.tags ?? {}) as Record<string, string>;
  return { ok: true, output: body.output, tags: Object.fromEntries(Object.entries(tags)) };
}
