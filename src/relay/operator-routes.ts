import { isFormletterError } from "../core/errors.js";
import { timeAgo } from "../core/message/time-ago.js";
import { reportFromAudit } from "../metrics/audit.js";
import type { Outbox } from "../outbox/index.js";
import { type QueueFilter, type QueueStatus, queueStatuses as statuses } from "../store/index.js";
import type { Checked, Gate } from "./gate.js";
import { json, problem } from "./http.js";
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

const invalid = (message: string) => problem(400, "request_invalid", message);

const queueQueryMessages: Readonly<Record<string, string>> = {
  status: `status must be one of ${statuses.join(", ")} or all`,
  reason: "reason must be an escalation reason",
  limit: "limit must be a whole number from 1 to 500",
};

/** The queue filter of `GET /v1/queue`'s query string, or the answer naming the bad parameter. */
function queueFilter(url: string): Checked<QueueFilter> {
  const parsed = queueQuery.safeParse(queryObject(url));
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? "");
    return { ok: false, response: invalid(queueQueryMessages[field] ?? "the query is not valid") };
  }
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

/** A time from the query string: an ISO 8601 date or time, or epoch milliseconds. */
function timeParameter(value: string | undefined): number | undefined | "invalid" {
  if (value === undefined || value === "") return undefined;
  const ago = timeAgo(value, Date.now());
  if (ago !== undefined) return ago;
  const at = /^\d+$/.test(value)
    ? Number(value)
    : /^\d{4}-\d{2}-\d{2}/.test(value)
      ? Date.parse(value)
      : Number.NaN;
  return Number.isFinite(at) ? at : "invalid";
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
        409: ["queue_transition_invalid"],
        503: ["unavailable"],
      },
    },
    async handle(request, route, params) {
      const authorized = await gate.authorize(request, route, operatorAudience);
      if (!authorized.ok) return authorized.response;
      const claims = authorized.value;
      const body = await gate.body(request, route, claims);
      if (!body.ok) return body.response;
      const fields = (body.value ?? {}) as Record<string, unknown>;
      if (typeof fields !== "object" || fields === null || Array.isArray(fields))
        return gate.refuse(request, route, "body_invalid", 400, { claims, message: "send a JSON object" });
      if (name === "resolve" && typeof fields.resolution !== "string")
        return invalid('resolve needs { "resolution": "how it was handled" }');
      const checked = (name === "resolve" ? resolveRequest : queueActionRequest).safeParse(fields);
      if (!checked.success)
        return gate.refuse(request, route, "body_invalid", 400, { claims, message: "note must be a string" });
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
              await outbox.queue.resolve(id, { by, resolution: String(fields.resolution), ...note }),
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
        return item === undefined
          ? problem(404, "queue_item_not_found", "no queue item has this id")
          : json(200, item);
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
        const query = reportQuery.safeParse(queryObject(request.url));
        if (!query.success) return invalid("volume is a number of tickets a day");
        const since = timeParameter(query.data.since);
        const until = timeParameter(query.data.until);
        if (since === "invalid" || until === "invalid")
          return invalid(
            "since and until are a time ago (7d, 24h, 30m, 2w), ISO 8601 dates or times, or epoch milliseconds",
          );
        const volume = query.data.volume;
        const events = outbox.audit.query(
          Object.assign(since === undefined ? {} : { since }, until === undefined ? {} : { until }),
        );
        return json(
          200,
          await reportFromAudit(events, volume === undefined ? {} : { ticketsPerDay: Number(volume) }),
        );
      },
    },
  ];
}

/** Queue refusals are meant for the operator who made them, so their messages are shown. */
function queueProblem(error: unknown): Response {
  if (isFormletterError(error)) {
    if (error.code === "queue_item_not_found") return problem(404, error.code, error.message);
    if (error.code === "queue_transition_invalid") return problem(409, error.code, error.message);
  }
  return problem(503, "unavailable", "the queue cannot be changed right now; try again");
}
