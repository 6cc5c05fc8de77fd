import { z } from "zod";
import { formletterVersion } from "../core/version.js";
import { errorReply } from "./reply-schemas.js";
import {
  bodyErrors,
  frameErrors,
  mergeErrors,
  operatorErrors,
  type RouteDoc,
  tokenErrors,
} from "./route-doc.js";

/** What the document needs of a route: its method, its path pattern and what it says of itself. */
export interface DocumentedRoute {
  readonly method: "GET" | "POST" | "DELETE";
  readonly path: string;
  readonly doc: RouteDoc;
}

type Json = Record<string, unknown>;

const componentRef = (name: string) => `#/components/schemas/${name}`;

/** The JSON Schemas of named zod schemas, as OpenAPI components that refer to each other by `$ref`. */
function components(schemas: ReadonlyMap<string, z.ZodType>, io: "input" | "output"): Json {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of schemas) registry.add(schema, { id: name });
  const { schemas: converted } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io,
    uri: componentRef,
  });
  // Each component is part of the document, not a document of its own: no $schema, no $id.
  return Object.fromEntries(
    Object.entries(converted).map(([name, { $schema: _schema, $id: _id, ...schema }]) => [name, schema]),
  );
}

/** "/v1/queue/:id/claim" → "/v1/queue/{id}/claim", and the names of its parameters. */
function openApiPath(path: string): { path: string; parameters: string[] } {
  const parameters: string[] = [];
  const converted = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    parameters.push(name);
    return `{${name}}`;
  });
  return { path: converted, parameters };
}

function queryParameters(query: z.ZodObject | undefined): Json[] {
  if (query === undefined) return [];
  const schema = z.toJSONSchema(query, { target: "draft-2020-12", io: "input" }) as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: "query",
      required: schema.required?.includes(name) ?? false,
      ...(typeof description === "string" ? { description } : {}),
      schema: rest,
    };
  });
}

const security: Readonly<Record<RouteDoc["auth"], Json[]>> = {
  none: [],
  task: [{ taskToken: [] }],
  operator: [{ operatorToken: [] }],
};

const tagOf: Readonly<Record<RouteDoc["auth"], string>> = {
  none: "service",
  task: "agent",
  operator: "operator",
};

function errorResponse(status: number, codes: readonly string[]): Json {
  const headers: Json = {};
  if (status === 401)
    headers["WWW-Authenticate"] = { description: 'Bearer realm="formletter"', schema: { type: "string" } };
  if (status === 429 || status === 503)
    headers["Retry-After"] = { description: "Seconds to wait before retrying.", schema: { type: "string" } };
  return {
    description: codes.join(", "),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: {
      "application/json": {
        schema: {
          allOf: [
            { $ref: componentRef("Error") },
            { properties: { error: { properties: { code: { enum: [...codes] } } } } },
          ],
        },
      },
    },
  };
}

function operation(route: DocumentedRoute, pathParameters: readonly string[]): Json {
  const { doc } = route;
  const responses: Json = {};
  if ("schema" in doc.success) {
    responses["200"] = {
      description: doc.success.name,
      content: { "application/json": { schema: { $ref: componentRef(doc.success.name) } } },
    };
  } else {
    responses["200"] = {
      description: doc.success.description,
      content: { [doc.success.mediaType]: { schema: { type: "string" } } },
    };
  }
  const errors = mergeErrors(
    doc.auth === "none" ? {} : tokenErrors,
    doc.auth === "operator" ? operatorErrors : {},
    doc.body === undefined ? {} : bodyErrors,
    doc.errors ?? {},
    frameErrors,
  );
  for (const [status, codes] of errors) responses[String(status)] = errorResponse(status, codes);
  return {
    summary: doc.summary,
    ...(doc.description === undefined ? {} : { description: doc.description }),
    tags: [tagOf[doc.auth]],
    security: security[doc.auth],
    parameters: [
      ...pathParameters.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
      ...queryParameters(doc.query),
    ],
    ...(doc.body === undefined
      ? {}
      : {
          requestBody: {
            required: doc.body.required,
            content: { "application/json": { schema: { $ref: componentRef(doc.body.name) } } },
          },
        }),
    responses,
  };
}

/**
 * The relay's OpenAPI 3.1 document, from its routes: each route's request, query and reply schemas are
 * the zod schemas the route validates with (or, for replies, is typed by), converted to JSON Schema
 * 2020-12. Requests are shown as accepted (input), replies as sent (output).
 */
export function openApiDocument(routes: readonly DocumentedRoute[]): Json {
  const requests = new Map<string, z.ZodType>();
  const replies = new Map<string, z.ZodType>([["Error", errorReply]]);
  for (const { doc } of routes) {
    if (doc.body !== undefined) requests.set(doc.body.name, doc.body.schema);
    if ("schema" in doc.success) replies.set(doc.success.name, doc.success.schema);
  }
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const { path, parameters } = openApiPath(route.path);
    paths[path] = Object.assign({}, paths[path], {
      [route.method.toLowerCase()]: operation(route, parameters),
    });
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "formletter relay",
      version: formletterVersion,
      description:
        "The outbox as an HTTP service: agents holding a task token propose messages for one ticket; people holding an operator token work the human queue. Every error answer is { error: { code, message } }.",
    },
    tags: [
      { name: "agent", description: "For agents: a task token for one ticket and run." },
      { name: "operator", description: "For people working the human queue: an operator token." },
      { name: "service", description: "For the platform: health, metrics, this document. No token." },
    ],
    paths,
    components: {
      schemas: Object.assign(components(requests, "input"), components(replies, "output")),
      securitySchemes: {
        taskToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "A task token (audience formletter-agent) for one ticket and run.",
        },
        operatorToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "An operator token (audience formletter-operator) for one person.",
        },
      },
    },
  };
}
