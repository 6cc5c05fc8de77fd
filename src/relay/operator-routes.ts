import { isFormletterError } from "../core/errors.js";
import { reportFromAudit } from "../metrics/audit.js";
import { reportTime } from "../metrics/report-time.js";
import { type Outbox, suppressedRefusal } from "../outbox/index.js";
import type { QueueFilter, QueueStatus } from "../store/index.js";
import type { Checked, Gate } from "./gate.js";
import { json, problem } from "./http.js";
import { issueOf, placeAt } from "./refusal.js";
import type { RelayMetrics } from "./relay-metrics.js";
import { approvalReply, queueItem, queueItemDetail, queuePage, reportReply } from "./reply-schemas.js";
import {
  queryObject,
  queueActionRequest,
  queueQuery,
  reportQuery,
  resolveRequest,
} from "./request-schemas.js";
import type { Route } from "./routes.js";
import { operatorAudience } from "./tokens.js";

/** What the operator endpoints need. */
export interface OperatorRoutesOptions {
  readonly outbox: Outbox;
  readonly gate: Gate;
  readonly metrics: RelayMetrics;
}

type Action = "claim" | "approve" | "reject" | "resolve";

const actionSummaries: Readonly<Record<Action, string>> = {
  claim: "Take a queue item, as the token's operator",
  approve: "Approve a draft: it is sent exactly as drafted, once",
  reject: "Reject a draft: nothing is sent",
  resolve: "Close an item, saying how it was handled",
};

/** The queue filter of `GET /v1/queue`'s query string, or the answer naming the bad parameter. */
function queueFilter(url: string): Checked<QueueFilter> {
  const given = queryObject(url);
  const parsed = queueQuery.safeParse(given);
  if (!parsed.success)
    return {
      ok: false,
      response: problem(400, issueOf("request_invalid", "query", queueQuery, given, parsed.error)),
    };
  const { status = "open", reason, limit } = parsed.data;
  const text = (name: "template" | "ticketId" | "cursor") => {
    const value = parsed.data[name];
    return value === undefined || value === "" ? {} : { [name]: value.slice(0, 200) };
  };
  return {
    ok: true,
    value: Object.assign(
      status === "all" ? {} : { status: status as QueueStatus },
      reason === undefined ? {} : { reason },
      limit === undefined ? {} : { limit: Number(limit) },
      text("template"),
      text("ticketId"),
      text("cursor"),
    ),
  };
}

/** The human queue and the escalation report, for people: an operator token (audience formletter-operator). */
export function operatorRoutes(options: OperatorRoutesOptions): Route[] {
  const { outbox, gate, metrics } = options;

  const action = (name: Action): Route => ({
    method: "POST",
    path: `/v1/queue/:id/${name}`,
    doc: {
      summary: actionSummaries[name],
      auth: "operator",
      body:
        name === "resolve"
          ? { schema: resolveRequest, name: "ResolveRequest", required: true }
          : { schema: queueActionRequest, name: "QueueActionRequest", required: false },
      success:
        name === "approve"
          ? { schema: approvalReply, name: "ApprovalReply" }
          : { schema: queueItem, name: "QueueItem" },
      errors: {
        404: ["queue_item_not_found"],
        ...(name === "resolve" ? { 400: ["request_invalid"] as const } : {}),
        409:
          name === "approve"
            ? ["queue_transition_invalid", "recipient_suppressed"]
            : ["queue_transition_invalid"],
        503: ["unavailable"],
      },
    },
    async handle(request, route, params) {
      const authorized = await gate.authorize(request, route, operatorAudience);
      if (!authorized.ok) return authorized.response;
      const claims = authorized.value;
      const body = await gate.body(request, route, claims);
      if (!body.ok) return body.response;
      const fields = body.value ?? {};
      const schema = name === "resolve" ? resolveRequest : queueActionRequest;
      const checked = schema.safeParse(fields);
      if (!checked.success) {
        // A resolve without a usable resolution is a request to fix, not a malformed body.
        if (name === "resolve" && checked.error.issues[0]?.path[0] === "resolution")
          return problem(400, issueOf("request_invalid", "body", schema, fields, checked.error));
        const { code: _, ...detail } = issueOf("body_invalid", "body", schema, fields, checked.error);
        return gate.refuse(request, route, "body_invalid", 400, { claims, detail });
      }
      const note = checked.data.note === undefined ? {} : { note: checked.data.note };
      // Who acts comes from the token: the body never names the person the audit log records.
      const by = claims.audience === operatorAudience ? claims.operator : "";
      const id = params.id ?? "";
      try {
        switch (name) {
          case "claim":
            return json(200, await outbox.queue.claim(id, { by }));
          case "approve": {
            const approval = await outbox.queue.approve(id, { by });
            if (approval.approvedNow && approval.outbound !== undefined)
              metrics.delivery(approval.outbound.status);
            return json(200, approval);
          }
          case "reject":
            return json(200, await outbox.queue.reject(id, { by, ...note }));
          case "resolve":
            return json(
              200,
              await outbox.queue.resolve(id, {
                by,
                resolution: (checked.data as { resolution: string }).resolution,
                ...note,
              }),
            );
        }
      } catch (error) {
        return queueProblem(error);
      }
    },
  });

  return [
    {
      method: "GET",
      path: "/v1/queue",
      doc: {
        summary: "A page of human-queue items, oldest first",
        auth: "operator",
        query: queueQuery,
        success: { schema: queuePage, name: "QueuePage" },
        errors: { 400: ["request_invalid"] },
      },
      async handle(request, route) {
        const authorized = await gate.authorize(request, route, operatorAudience);
        if (!authorized.ok) return authorized.response;
        const filter = queueFilter(request.url);
        if (!filter.ok) return filter.response;
        return json(200, await outbox.queue.list(filter.value));
      },
    },
    {
      method: "GET",
      path: "/v1/queue/:id",
      doc: {
        summary: "One queue item, with its draft and the typed fields of its escalation",
        auth: "operator",
        success: { schema: queueItemDetail, name: "QueueItemDetail" },
        errors: { 404: ["queue_item_not_found"] },
      },
      async handle(request, route, params) {
        const authorized = await gate.authorize(request, route, operatorAudience);
        if (!authorized.ok) return authorized.response;
        const item = await outbox.queue.get(params.id ?? "");
        return item === undefined ? problem(404, { code: "queue_item_not_found" }) : json(200, item);
      },
    },
    action("claim"),
    action("approve"),
    action("reject"),
    action("resolve"),
    {
      method: "GET",
      path: "/v1/report",
      doc: {
        summary: "The escalation report from the audit log, with the projected human decisions a day",
        auth: "operator",
        query: reportQuery,
        success: { schema: reportReply, name: "EscalationReport" },
        errors: { 400: ["request_invalid"] },
      },
      async handle(request, route) {
        const authorized = await gate.authorize(request, route, operatorAudience);
        if (!authorized.ok) return authorized.response;
        const given = queryObject(request.url);
        const query = reportQuery.safeParse(given);
        if (!query.success)
          return problem(400, issueOf("request_invalid", "query", reportQuery, given, query.error));
        const now = Date.now();
        const window: { since?: number; until?: number } = {};
        for (const bound of ["since", "until"] as const) {
          const text = query.data[bound];
          if (text === undefined || text === "") continue;
          const at = reportTime(text, now);
          if (at === undefined) {
            const place = placeAt("query", reportQuery, bound);
            return problem(400, { code: "request_invalid", place, expected: { kind: "instant" } });
          }
          window[bound] = at;
        }
        const volume = query.data.volume;
        const events = outbox.audit.query(window);
        return json(
          200,
          await reportFromAudit(events, volume === undefined ? {} : { ticketsPerDay: Number(volume) }),
        );
      },
    },
  ];
}

/**
 * A queue refusal by its code alone, in the relay's own words (refusal.ts), like every answer it gives.
 * The operator reads the item again for its status and holder. An approval refused for a suppressed
 * recipient is `recipient_suppressed`, with the cause when it is one of the relay's own list: lifting the
 * suppression is the fix, not reading the item again. The gate holds the token's operator to the queue's
 * own name rule first; were the queue to refuse who acts anyway, the answer is the gate's.
 */
function queueProblem(error: unknown): Response {
  if (isFormletterError(error)) {
    if (error.code === "queue_item_not_found") return problem(404, { code: error.code });
    const suppressed = suppressedRefusal(error);
    if (suppressed !== undefined)
      return problem(409, {
        code: "recipient_suppressed",
        ...(suppressed.cause === undefined ? {} : { suppression: { cause: suppressed.cause } }),
      });
    if (error.code === "queue_transition_invalid") return problem(409, { code: error.code });
    if (error.code === "queue_actor_invalid") return problem(400, { code: "actor_invalid" });
  }
  return problem(503, { code: "unavailable" });
}
