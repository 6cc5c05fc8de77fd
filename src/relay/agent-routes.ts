import type { Catalog } from "../core/decision/catalog.js";
import type { Expected } from "../core/decision/decision.js";
import type { EscalationReason } from "../core/decision/reasons.js";
import { isFormletterError } from "../core/errors.js";
import type { LlmProvider } from "../core/llm/providers.js";
import { merged } from "../core/merged.js";
import type { HandleResult, Outbox } from "../outbox/index.js";
import type { Gate } from "./gate.js";
import { json, problem } from "./http.js";
import { readProposalBody } from "./proposal-body.js";
import { issueOf } from "./refusal.js";
import type { RelayMetrics } from "./relay-metrics.js";
import { describeReply, proposalReply, toolsReply } from "./reply-schemas.js";
import { describeQuery, proposalRequest, queryObject, toolsQuery } from "./request-schemas.js";
import type { Route } from "./routes.js";
import { agentAudience } from "./tokens.js";
import type { TokenClaims } from "./verify-token.js";

/** What the agent endpoints need. */
export interface AgentRoutesOptions {
  readonly outbox: Outbox;
  readonly gate: Gate;
  readonly metrics: RelayMetrics;
}

/**
 * What a proposal's answer carries: the outcome and, for a retry, the reason, the hint, the slot at
 * fault and what was expected (ids, keys or a count of fitting records). Never the message, its
 * recipient, the values or the human-facing detail.
 *
 * @example
 * import type { ProposalReply } from "formletter/relay";
 * const reply: ProposalReply = { outcome: "escalate", reason: "record_not_found", hint: "orders: o-3f2a, o-91c0" };
 */
export interface ProposalReply {
  readonly outcome: "send" | "escalate";
  readonly reason?: EscalationReason;
  /** Valid template ids, handles or keys, where a corrected proposal could succeed. No record content. */
  readonly hint?: string;
  /** The slot at fault, when one is. */
  readonly slot?: string;
  /** What would have been accepted: template ids, codes, slot names, keys, or how many records fit. */
  readonly expected?: Expected;
  /** True when an identical proposal was handled before: nothing new was sent. */
  readonly duplicate?: true;
  /**
   * The human queue item of a draft that waits for a person's approval (`approval_required`): an id
   * an approval screen or an operator can act on, never the draft itself.
   */
  readonly queueItemId?: string;
}

// The same answer whatever the cause (a throwing loader, invalid records, another ticket's records):
// the agent has no use for the difference, and the cause may name internals.
const recordsUnavailable = () => problem(503, { code: "records_unavailable" });

type AgentClaims = Extract<TokenClaims, { audience: typeof agentAudience }>;

/** The reply to a proposal: never the message, the values, the recipient or the human-facing detail. */
function replyTo(result: HandleResult): ProposalReply {
  const { decision } = result;
  const reply: { -readonly [K in keyof ProposalReply]: ProposalReply[K] } = { outcome: decision.outcome };
  if (decision.outcome === "escalate") {
    reply.reason = decision.reason;
    if (decision.hint !== undefined) reply.hint = decision.hint;
    if ("slot" in decision && decision.slot !== undefined) reply.slot = decision.slot;
    if ("expected" in decision && decision.expected !== undefined) reply.expected = decision.expected;
    if (decision.reason === "approval_required" && result.queueItemId !== undefined)
      reply.queueItemId = result.queueItemId;
  }
  if (result.duplicate) reply.duplicate = true;
  return reply;
}

/** `POST /v1/proposals`, `GET /v1/tools`, `GET /v1/describe`: a task token, one ticket. */
export function agentRoutes(options: AgentRoutesOptions): Route[] {
  const { outbox, gate, metrics } = options;
  const { catalog } = outbox;

  const authorize = async (request: Request, route: string) => {
    const checked = await gate.authorize(request, route, agentAudience);
    return checked.ok ? { ok: true as const, value: checked.value as AgentClaims } : checked;
  };

  /** The token's ticket's records, or the answer saying they cannot be had (without saying why). */
  const records = async (
    claims: AgentClaims,
  ): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> => {
    // A loader that returns another ticket's records must not show their labels to this agent.
    const loaded = await outbox.records(claims.ticketId);
    return loaded.ok ? { ok: true, value: loaded.records } : { ok: false, response: recordsUnavailable() };
  };

  return [
    {
      method: "POST",
      path: "/v1/proposals",
      doc: {
        summary: "Propose a message (or an escalation) for the token's ticket",
        description:
          "The relay decides, applies the limits, records the decision and delivers. The answer says send or escalate, with the reason and a hint where a corrected proposal could succeed; never the message, its recipient or the values. Retrying the same proposal is safe: it answers duplicate and sends nothing new.",
        auth: "task",
        body: { schema: proposalRequest, name: "ProposalRequest", required: true },
        success: { schema: proposalReply, name: "ProposalReply" },
        errors: { 400: ["body_invalid"], 403: ["ticket_mismatch"], 503: ["unavailable"] },
      },
      async handle(request, route) {
        const authorized = await authorize(request, route);
        if (!authorized.ok) return authorized.response;
        const claims = authorized.value;
        const body = await gate.body(request, route, claims);
        if (!body.ok) return body.response;
        const proposal = readProposalBody(body.value, claims);
        if (!proposal.ok) {
          const status = proposal.refusal === "ticket_mismatch" ? 403 : 400;
          return gate.refuse(request, route, proposal.refusal, status, { claims, detail: proposal.detail });
        }
        let result: HandleResult;
        try {
          result = await outbox.handle({
            ticketId: claims.ticketId,
            runId: claims.runId,
            output: proposal.output,
            tags: proposal.tags,
          });
        } catch (error) {
          if (isFormletterError(error) && error.code === "handle_invalid")
            return problem(400, { code: "body_invalid" });
          return problem(503, { code: "unavailable" });
        }
        metrics.decision(result.decision, result.duplicate, result.delivery?.status);
        return json(200, replyTo(result));
      },
    },
    {
      method: "GET",
      path: "/v1/tools",
      doc: {
        summary: "The ticket's tools for a provider's API",
        description:
          "One tool per template this ticket can fill, plus escalate_to_human, with this ticket's handles and keys as enums. With `template`, the stage-two tools of that template.",
        auth: "task",
        query: toolsQuery,
        success: { schema: toolsReply, name: "ToolsReply" },
        errors: {
          400: ["request_invalid"],
          404: ["template_not_offered"],
          501: ["not_implemented"],
          503: ["records_unavailable"],
        },
      },
      async handle(request, route) {
        const authorized = await authorize(request, route);
        if (!authorized.ok) return authorized.response;
        const given = queryObject(request.url);
        const query = toolsQuery.safeParse(given);
        if (!query.success)
          return problem(400, issueOf("request_invalid", "query", toolsQuery, given, query.error));
        const provider = query.data.provider as LlmProvider;
        // A catalog built by an older copy of formletter has no tools(): say so instead of failing.
        if (typeof catalog.tools !== "function") return problem(501, { code: "not_implemented" });
        const loaded = await records(authorized.value);
        if (!loaded.ok) return loaded.response;
        let offer: ReturnType<Catalog["tools"]> | undefined;
        try {
          const { cache } = query.data;
          offer = catalog.tools(loaded.value, { provider, ...(cache === undefined ? {} : { cache }) });
        } catch {
          return recordsUnavailable();
        }
        const template = query.data.template;
        if (template !== undefined) {
          offer = offer.forTemplate(template);
          if (offer === undefined) return problem(404, { code: "template_not_offered" });
        }
        const { next: _next, forTemplate: _forTemplate, ...plain } = offer;
        // The version says which catalog the tools came from: a proposal made with them against a
        // relay that has since deployed another catalog can be told apart.
        return json(200, merged(plain, { catalogVersion: catalog.version }));
      },
    },
    {
      method: "GET",
      path: "/v1/describe",
      doc: {
        summary: "The ticket's templates and choosable records, as text for the system prompt",
        auth: "task",
        query: describeQuery,
        success: { schema: describeReply, name: "DescribeReply" },
        errors: { 400: ["request_invalid"], 503: ["records_unavailable"] },
      },
      async handle(request, route) {
        const authorized = await authorize(request, route);
        if (!authorized.ok) return authorized.response;
        const given = queryObject(request.url);
        const query = describeQuery.safeParse(given);
        if (!query.success)
          return problem(400, issueOf("request_invalid", "query", describeQuery, given, query.error));
        const loaded = await records(authorized.value);
        if (!loaded.ok) return loaded.response;
        try {
          const { cache } = query.data;
          return json(200, {
            description: catalog.describe(loaded.value, cache === undefined ? {} : { cache }),
          });
        } catch {
          return recordsUnavailable();
        }
      },
    },
  ];
}
