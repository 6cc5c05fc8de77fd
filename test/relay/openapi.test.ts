import { validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Hono } from "hono";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { formletterVersion } from "../../src/core/version.js";
import type { Refusal } from "../../src/relay/access-log.js";
import { createRelay, relayApps } from "../../src/relay/relay.js";
import type { ErrorCode } from "../../src/relay/reply-schemas.js";
import { proposalRequest } from "../../src/relay/request-schemas.js";
import { proposal } from "../fixtures/property.js";
import { replyProblem } from "./contract.js";
import { agentSecret, call, useRelay } from "./harness.js";

type Document = {
  info: { version: string };
  paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

const fetchDocument = async (url: string) => {
  const answer = await call(url, "/openapi.json");
  expect(answer.status).toBe(200);
  return { document: answer.body as Document, text: answer.text };
};

/** The routes hono serves ("GET /v1/queue/{id}"), from the app itself, not from the relay's route table. */
function servedRoutes(app: Hono): string[] {
  return [
    ...new Set(
      app.routes
        .filter((route) => route.method !== "ALL")
        .map((route) => `${route.method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`),
    ),
  ].sort();
}

const documentedRoutes = (document: Document) =>
  Object.entries(document.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();

function appOf(fetch: (request: Request) => Response | Promise<Response>): Hono {
  const app = relayApps.get(fetch);
  if (app === undefined) throw new Error("no app for this relay");
  return app;
}

describe("GET /openapi.json", () => {
  const setup = useRelay();

  it("serves a valid OpenAPI 3.1 document, without a token, the same on every request", async () => {
    const { document, text } = await fetchDocument(setup.rig.url);
    const result = await validate(structuredClone(document) as never);
    expect(result).toMatchObject({ valid: true, specification: "OpenAPI" });
    expect(result.warnings).toEqual([]);
    expect(document).toMatchObject({ openapi: "3.1.0", info: { version: formletterVersion } });
    expect((await fetchDocument(setup.rig.url)).text).toBe(text);
  });

  it("lists exactly the routes the relay's hono app serves", async () => {
    const { document } = await fetchDocument(setup.rig.url);
    const served = servedRoutes(appOf(setup.rig.relay.fetch));
    expect(served).toContain("POST /v1/queue/{id}/approve");
    expect(documentedRoutes(document)).toEqual(served);
  });

  // hono answers HEAD with a GET route on its own, which no route table lists: only requests show it.
  it.each([["with"], ["without"]] as const)(
    "answers a method on a path exactly when the document lists it, HEAD included, %s an operator secret",
    async (operator) => {
      const relay = createRelay({
        outbox: setup.rig.outbox,
        secret: agentSecret,
        ...(operator === "with" ? { operatorSecret: "operator-secret-0123456789-abcdefghijklm" } : {}),
      });
      const document = (await (
        await relay.fetch(new Request("http://relay.test/openapi.json"))
      ).json()) as Document;
      const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
      const served: string[] = [];
      for (const path of Object.keys(document.paths)) {
        for (const method of methods) {
          // No token: a served endpoint refuses (401) or answers; only a missing one says 404.
          const url = `http://relay.test${path.replace(/\{[^}]+\}/g, "q-1")}`;
          const answer = await relay.fetch(new Request(url, { method }));
          if (answer.status !== 404) served.push(`${method} ${path}`);
        }
      }
      expect(served.sort()).toEqual(documentedRoutes(document));
      expect(served).not.toContain("HEAD /healthz");
    },
  );

  it("answers HEAD as an endpoint that does not exist, over HTTP too", async () => {
    const answer = await call(setup.rig.url, "/healthz", { method: "HEAD", undocumented: true });
    expect(answer.status).toBe(404);
    expect(answer.text).toBe("");
  });

  it("would miss a route added to the app without a document entry", async () => {
    const relay = createRelay({ outbox: setup.rig.outbox, secret: agentSecret });
    const app = appOf(relay.fetch);
    app.get("/v1/extra", (c) => c.json({}));
    const answer = await relay.fetch(new Request("http://relay.test/openapi.json"));
    const document = (await answer.json()) as Document;
    expect(servedRoutes(app)).toContain("GET /v1/extra");
    expect(documentedRoutes(document)).not.toContain("GET /v1/extra");
  });

  it("lists only the agent and service routes on a relay without an operator secret", async () => {
    const relay = createRelay({ outbox: setup.rig.outbox, secret: agentSecret });
    const answer = await relay.fetch(new Request("http://relay.test/openapi.json"));
    const document = (await answer.json()) as Document;
    expect(documentedRoutes(document)).toEqual(servedRoutes(appOf(relay.fetch)));
    expect(Object.keys(document.paths)).not.toContain("/v1/queue");
    expect((await validate(document as never)).valid).toBe(true);
  });

  it("says which token each endpoint needs, and documents the token refusals where one is needed", async () => {
    const { document } = await fetchDocument(setup.rig.url);
    expect(document.paths["/healthz"]?.get?.security).toEqual([]);
    expect(document.paths["/v1/proposals"]?.post?.security).toEqual([{ taskToken: [] }]);
    expect(document.paths["/v1/queue/{id}"]?.get?.security).toEqual([{ operatorToken: [] }]);
    expect(Object.keys(document.paths["/v1/proposals"]?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(["200", "400", "401", "403", "413", "415", "429", "500", "503"]),
    );
    expect(Object.keys(document.paths["/healthz"]?.get?.responses ?? {})).toEqual(["200", "500", "503"]);
  });
});

describe("the request schemas", () => {
  const setup = useRelay();

  it("are the zod schemas the routes validate with, converted", async () => {
    const { document } = await fetchDocument(setup.rig.url);
    const { $schema: _, ...converted } = z.toJSONSchema(proposalRequest, {
      target: "draft-2020-12",
      io: "input",
    });
    expect(document.components.schemas.ProposalRequest).toEqual(converted);
  });

  const bodies: [string, unknown][] = [
    ["a proposal", { output: "PROPOSAL" }],
    ["a proposal with tags", { output: "PROPOSAL", tags: { category: "damage" } }],
    ["no output", { tags: {} }],
    ["an unknown field", { output: "PROPOSAL", extra: 1 }],
    ["a tag that is a number", { output: "PROPOSAL", tags: { category: 1 } }],
    ["a tag with an empty name", { output: "PROPOSAL", tags: { "": "x" } }],
    ["a tag value too long", { output: "PROPOSAL", tags: { category: "x".repeat(201) } }],
    [
      "too many tags",
      { output: "PROPOSAL", tags: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`t${i}`, "x"])) },
    ],
    ["tags that are a list", { output: "PROPOSAL", tags: ["x"] }],
  ];

  it.each(bodies)("accept and refuse alike in the document and in the relay: %s", async (_name, body) => {
    const { relay, url } = setup.rig;
    const { document } = await fetchDocument(url);
    const ajv = new Ajv2020({ strict: false });
    const schema = { ...document.components.schemas.ProposalRequest };
    const valid = ajv.validate(schema, body);
    const ticketId = `T-${Math.random().toString(36).slice(2, 8)}`;
    const token = await relay.mintTaskToken({ ticketId, runId: "run-1" });
    const json = JSON.parse(JSON.stringify(body).replace('"PROPOSAL"', JSON.stringify(proposal(ticketId))));
    const answer = await call(url, "/v1/proposals", { token, json });
    expect(answer.status === 200).toBe(valid);
    if (!valid) expect(answer.body.error.code).toBe("body_invalid");
  });
});

describe("the operator bodies", () => {
  const setup = useRelay();

  it.each([
    ["claim", { note: 5 }, 400, "body_invalid"],
    ["resolve", { note: "x" }, 400, "request_invalid"],
    ["resolve", { resolution: "called back", note: ["x"] }, 400, "body_invalid"],
    ["claim", { note: "looking" }, 404, "queue_item_not_found"],
  ] as const)("POST …/%s with %j answers %i %s", async (action, json, status, code) => {
    const { relay, url } = setup.rig;
    const token = await relay.mintOperatorToken({ operator: "ana@example.com" });
    const answer = await call(url, `/v1/queue/q-missing/${action}`, { token, json });
    expect(answer.status).toBe(status);
    expect(answer.body.error.code).toBe(code);
  });
});

describe("the contract check of the test harness", () => {
  const setup = useRelay();
  const headers = new Headers({ "content-type": "application/json" });

  it("refuses a path, a method or a status the document does not list, and a body it does not describe", async () => {
    const { url } = setup.rig;
    const health = { status: "ok", catalogVersion: "v" };
    expect(
      await replyProblem(url, "GET", "/healthz", { status: 200, headers, body: health }),
    ).toBeUndefined();
    expect(await replyProblem(url, "GET", "/nowhere", { status: 200, headers, body: {} })).toMatch(
      /has no GET \/nowhere/,
    );
    expect(await replyProblem(url, "POST", "/healthz", { status: 200, headers, body: health })).toMatch(
      /has no POST/,
    );
    expect(await replyProblem(url, "GET", "/healthz", { status: 418, headers, body: health })).toMatch(
      /status 418 is not documented/,
    );
    expect(
      await replyProblem(url, "GET", "/healthz", { status: 200, headers, body: { status: "ok" } }),
    ).toMatch(/does not match/);
    const wrongCode = { error: { code: "token_expired", message: "x" } };
    expect(await replyProblem(url, "GET", "/healthz", { status: 503, headers, body: wrongCode })).toMatch(
      /does not match/,
    );
    expect(
      await replyProblem(url, "GET", "/v1/queue/q-1?x=1", {
        status: 404,
        headers,
        body: { error: { code: "queue_item_not_found", message: "x" } },
      }),
    ).toBeUndefined();
    expect(
      await replyProblem(url, "GET", "/healthz", { status: 200, headers: new Headers(), body: health }),
    ).toMatch(/content type/);
  });

  it("documents every refusal the gate gives", () => {
    expectTypeOf<Refusal>().toExtend<ErrorCode>();
  });
});
