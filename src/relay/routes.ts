import type { Hono } from "hono";
import { problem, timedOut, withDeadline } from "./http.js";
import type { RelayMetrics } from "./relay-metrics.js";
import type { RequestLog } from "./request-log.js";
import type { RouteDoc } from "./route-doc.js";

/**
 * One endpoint: its method, its path pattern (also its name in the metrics), what the OpenAPI document
 * says of it, and what answers it.
 */
export interface Route {
  readonly method: "GET" | "POST" | "DELETE";
  readonly path: string;
  readonly doc: RouteDoc;
  handle(request: Request, route: string, params: Readonly<Record<string, string>>): Promise<Response>;
}

/**
 * Adds routes to the app, each behind the same frame: a deadline, a catch-all that answers 500 without
 * details, the latency and status metrics and the request's log line under the route's pattern (never
 * the raw path, which the caller chose and would make the series unbounded).
 */
export function mountRoutes(
  app: Hono,
  routes: readonly Route[],
  frame: { metrics: RelayMetrics; requestTimeoutMs: number; log: RequestLog },
): void {
  for (const route of routes) {
    app.on(route.method, route.path, async (c) => {
      const started = performance.now();
      let response: Response;
      try {
        const answer = await withDeadline(
          route.handle(c.req.raw, route.path, c.req.param() as Record<string, string>),
          frame.requestTimeoutMs,
        );
        response = answer === timedOut ? problem(503, { code: "timeout" }, { "retry-after": "1" }) : answer;
      } catch {
        response = problem(500, { code: "internal" });
      }
      const elapsed = performance.now() - started;
      frame.metrics.request(route.path, response.status, elapsed / 1000);
      frame.log(c.req.raw, route.path, response.status, elapsed);
      return response;
    });
  }
}
