import { tagsProblem } from "../core/definition/tags.js";
import { proposalRequest } from "./request-schemas.js";
import type { TokenClaims } from "./verify-token.js";

/** A proposal request, checked: the model's output and the tags. The ticket and run are the token's. */
export type ProposalBody =
  | { readonly ok: true; readonly output: unknown; readonly tags: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly refusal: "body_invalid" | "ticket_mismatch"; readonly message: string };

const allowed = new Set(Object.keys(proposalRequest.shape));

/**
 * Reads `{ output, tags? }` with {@link proposalRequest}, the schema the OpenAPI document shows. A
 * `ticketId` or `runId` in the body is tolerated only when it repeats the token's: one that differs is
 * an agent trying to act on another ticket, refused and audited as such. Messages name the fields the
 * relay defined, never what the caller sent.
 */
export function readProposalBody(
  value: unknown,
  claims: Extract<TokenClaims, { audience: "formletter-agent" }>,
): ProposalBody {
  const invalid = (message: string): ProposalBody => ({ ok: false, refusal: "body_invalid", message });
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return invalid("send a JSON object: { output, tags? }");
  const body = value as Record<string, unknown>;
  for (const key of Object.keys(body)) {
    if (!allowed.has(key)) return invalid("the body has a field other than output and tags");
  }
  // Checked before the shape: another ticket's id is a mismatch whatever its type.
  if (
    (Object.hasOwn(body, "ticketId") && body.ticketId !== claims.ticketId) ||
    (Object.hasOwn(body, "runId") && body.runId !== claims.runId)
  ) {
    return {
      ok: false,
      refusal: "ticket_mismatch",
      message: "the token is for another ticket or run; the ticket and run come from the token only",
    };
  }
  if (!Object.hasOwn(body, "output"))
    return invalid("output is missing: the model's proposal, as JSON or text");
  const parsed = proposalRequest.safeParse(body);
  if (!parsed.success)
    return invalid(tagsProblem(body.tags ?? {}) ?? "the body does not have the expected shape");
  // The tags as sent, copied by entries: a tag named __proto__ stays an own property, as it was checked.
  const tags = (body.tags ?? {}) as Record<string, string>;
  return { ok: true, output: body.output, tags: Object.fromEntries(Object.entries(tags)) };
}
