import { z } from "zod";
import { json } from "./http.js";
import { openApiDocument } from "./openapi.js";
import { exposition } from "./prometheus.js";
import { healthReply } from "./reply-schemas.js";
import type { Route } from "./routes.js";

/** What the service endpoints need: the catalog's version, the metrics, and every route of the relay. */
export interface ServiceRoutesOptions {
  readonly catalogVersion: () => string;
  readonly renderMetrics: () => Promise<string>;
  /** All the relay's routes, these included: the OpenAPI document describes them. */
  readonly routes: () => readonly Route[];
}

/** `GET /healthz`, `GET /metrics`, `GET /openapi.json`: for the platform, without a token. */
export function serviceRoutes(options: ServiceRoutesOptions): Route[] {
  // The document is the same for every request: built on the first and kept.
  let document: string | undefined;
  return [
    {
      method: "GET",
      path: "/healthz",
      doc: {
        summary: "Whether the relay is up, and the catalog version it decides with",
        auth: "none",
        success: { schema: healthReply, name: "Health" },
      },
      handle: async () => json(200, { status: "ok", catalogVersion: options.catalogVersion() }),
    },
    {
      method: "GET",
      path: "/metrics",
      doc: {
        summary: "Metrics in the Prometheus text format: the relay's series, then the process's",
        auth: "none",
        success: { mediaType: "text/plain", description: "Prometheus text exposition format 0.0.4" },
      },
      handle: async () =>
        new Response(await options.renderMetrics(), {
          headers: { "content-type": exposition, "cache-control": "no-store" },
        }),
    },
    {
      method: "GET",
      path: "/openapi.json",
      doc: {
        summary: "This document: the relay's endpoints, bodies, replies and errors, as OpenAPI 3.1",
        auth: "none",
        success: { schema: z.record(z.string(), z.unknown()), name: "OpenApiDocument" },
      },
      handle: async () => {
        document ??= JSON.stringify(openApiDocument(options.routes()));
        return new Response(document, {
          headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-cache" },
        });
      },
    },
  ];
}
