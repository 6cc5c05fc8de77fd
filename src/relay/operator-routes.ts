import { isFormletterError } from "../errors.js";
import { reportFromAudit } from "../metrics/audit.js";
import type { Outbox } from "../outbox/index.js";
import { isEscalationReason } from "../reasons.js";
import { type QueueFilter, type QueueStatus, queueStatuses as statuses } from "../store/index.js";
import { timeAgo } from "../time-ago.js";
import type { Checked, Gate } from "./gate.js";
import { json, problem } from "./http.js";
import type { RelayMetrics } from "./relay-metrics.js";
import type { Route } from "./routes.js";
import { operatorAudience } from "./tokens.js";

/** What the operator endpoints need. */
export interface OperatorRoutesOptions {
  readonly outbox: Outbox;
  readonly gate: Gate;
  readonly metrics: RelayMetrics;
}

type Action = "claim" | "approve" | "reject" | "resolve";

const invalid = (message: string) => problem(400, "request_invalid", message);

/** The queue filter of `GET /v1/queue`'s query string, or the answer naming the bad parameter. */
function queueFilter(query: URLSearchParams): Checked<QueueFilter> {
  const status = query.get("status") ?? "open";
  if (status !== "all" && !statuses.includes(status as QueueStatus))
    return { ok: false, response: invalid(`status must be one of ${statuses.join(", ")} or all`) };
  const reason = query.get("reason");
  if (reason !== null && !isEscalationReason(reason))
    return { ok: false, response: invalid("reason must be an escalation reason") };
  const limit = query.get("limit");
  if (limit !== null && !/^\d{1,3}$/.test(limit))
    return { ok: false, response: invalid("limit must be a whole number from 1 to 500") };
  const text = (name: string) => {
    const value = query.get(name);
    return value === null || value === "" ? {} : { [name]: value.slice(0, 200) };
  };
  return {
    ok: true,
    value: {
      ...(status === "all" ? {} : { status: status as QueueStatus }),
      ...(reason === null ? {} : { reason }),
      ...(limit === null ? {} : { limit: Number(limit) }),
      ...text("template"),
      ...text("ticketId"),
      ...text("cursor"),
    },
  };
}

/** A time from the query string: an ISO 8601 date or time, or epoch milliseconds. */
function timeParameter(value: string | null): number | undefined | "invalid" {
  if (value === null || value === "") return undefined;
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
    async handle(request, route, params) {
      const authorized = await gate.authorize(request, route, operatorAudience);
      if (!authorized.ok) return authorized.response;
      const claims = authorized.value;
      const body = await gate.body(request, route, claims);
      if (!body.ok) return body.response;
      const fields = (body.value ?? {}) as Record<string, unknown>;
      if (typeof fields !== "object" || fields === null || Array.isArray(fields))
        return gate.refuse(request, route, "body_invalid", 400, { claims, message: "send a JSON object" });
      const note = typeof fields.note === "string" ? { note: fields.note } : {};
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
          case "resolve": {
            if (typeof fields.resolution !== "string")
              return invalid('resolve needs { "resolution": "how it was handled" }');
            return json(200, await outbox.queue.resolve(id, { by, resolution: fields.resolution, ...note }));
          }
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
      async handle(request, route) {
        const authorized = await gate.authorize(request, route, operatorAudience);
        if (!authorized.ok) return authorized.response;
        const filter = queueFilter(new URL(request.url).searchParams);
        if (!filter.ok) return filter.response;
        return json(200, await outbox.queue.list(filter.value));
      },
    },
    {
      method: "GET",
      path: "/v1/queue/:id",
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
      async handle(request, route) {
        const authorized = await gate.authorize(request, route, operatorAudience);
        if (!authorized.ok) return authorized.response;
        const query = new URL(request.url).searchParams;
        const since = timeParameter(query.get("since"));
        const until = timeParameter(query.get("until"));
        if (since === "invalid" || until === "invalid")
          return invalid(
            "since and until are a time ago (7d, 24h, 30m, 2w), ISO 8601 dates or times, or epoch milliseconds",
          );
        const volume = query.get("volume");
        if (volume !== null && !/^\d+(\.\d+)?$/.test(volume))
          return invalid("volume is a number of tickets a day");
        const events = outbox.audit.query({
          ...(since === undefined ? {} : { since }),
          ...(until === undefined ? {} : { until }),
        });
        return json(
          200,
          await reportFromAudit(events, volume === null ? {} : { ticketsPerDay: Number(volume) }),
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
