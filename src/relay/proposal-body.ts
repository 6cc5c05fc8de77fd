import { tagsProblem } from "../tags.js";
import type { TokenClaims } from "./verify-token.js";

/** A proposal request, checked: the model's output and the tags. The ticket and run are the token's. */
export type ProposalBody =
  | { readonly ok: true; readonly output: unknown; readonly tags: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly refusal: "body_invalid" | "ticket_mismatch"; readonly message: string };

const allowed = new Set(["output", "tags", "ticketId", "runId"]);

/**
 * Reads `{ output, tags? }`. A `ticketId` or `runId` in the body is tolerated only when it repeats the
 * token's: one that differs is an agent trying to act on another ticket, refused and audited as such.
 * Messages name the fields the relay defined, never what the caller sent.
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
  const tags = body.tags ?? {};
  const problem = tagsProblem(tags);
  if (problem !== undefined) return invalid(problem);
  return { ok: true, output: body.output, tags: Object.fromEntries(Object.entries(tags)) };
}
