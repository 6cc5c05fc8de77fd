import type { LlmProvider } from "../core/llm/providers.js";
import type { ToolsResult } from "../core/llm/tools.js";
import type { ProposalReply } from "./agent-routes.js";
import { RelayError, RelayRequestError } from "./errors.js";

/**
 * Options of {@link createRelayClient}.
 *
 * @example
 * import { createRelayClient } from "formletter/relay";
 * const client = createRelayClient({ url: "http://127.0.0.1:8787", token: process.env.FORMLETTER_TASK_TOKEN ?? "", timeoutMs: 5000 });
 */
export interface RelayClientOptions {
  /** The relay's base URL, e.g. "http://127.0.0.1:8787". */
  readonly url: string;
  /** The task token of this run: the agent's only credential. */
  readonly token: string;
  /** How long one request may take, answer included, in milliseconds. @default 15000 */
  readonly timeoutMs?: number;
  /** The fetch to use. @default globalThis.fetch */
  readonly fetch?: typeof fetch;
}

/**
 * A ticket's tools as the relay sends them: the provider's tool list and what was left out, as data.
 *
 * @example
 * import type { RelayTools } from "formletter/relay";
 * const offer: RelayTools<"anthropic"> = await relay.tools("anthropic");
 * const response = await anthropic.messages.create({ model, max_tokens: 1024, tools: offer.tools, messages });
 */
export type RelayTools<P extends LlmProvider = LlmProvider> = Omit<ToolsResult<P>, "next" | "forTemplate">;

/**
 * The agent's side of the relay: propose, and read the ticket's tools and prompt text.
 *
 * @example
 * import { createRelayClient } from "formletter/relay";
 * const relay = createRelayClient({ url: "http://127.0.0.1:8787", token });
 * const system = `${instructions}\n\n${await relay.describe()}`;
 */
export interface RelayClient {
  /**
   * Hands the model's output (a proposal object, or its JSON text) to the relay, which decides, commits
   * and delivers. Bad output is an answer (`outcome: "escalate"` with a reason), not an error; a refused
   * or failed request throws a {@link RelayRequestError}. Sending the same proposal again is safe.
   */
  propose(
    output: unknown,
    options?: { readonly tags?: Readonly<Record<string, string>> },
  ): Promise<ProposalReply>;
  /** The ticket's tools for `provider`; with `template`, the stage-two tools of that template. */
  tools<P extends LlmProvider>(
    provider: P,
    options?: { readonly template?: string; readonly cache?: "ticket" | "prefix" },
  ): Promise<RelayTools<P>>;
  /**
   * The ticket's prompt text: templates, each choosable record as `handle: label`, escalation codes;
   * with `cache: "prefix"`, the text that goes with the tools every ticket shares.
   */
  describe(options?: { readonly cache?: "ticket" | "prefix" }): Promise<string>;
}

/**
 * What is wrong with a task token's form, or undefined: checked before any request, so a token pasted
 * with a line break or cut short is reported as such, not as a relay that "could not be reached" (fetch
 * refuses such a header before it connects).
 */
function taskTokenProblem(token: string): string | undefined {
  if (/\s/.test(token)) return "contains whitespace or a line break (copied with its newline?)";
  const parts = token.split(".");
  if (parts.length !== 3)
    return `has ${parts.length} part${parts.length === 1 ? "" : "s"} separated by dots; a task token (a JWT) has 3`;
  if (parts.some((part) => part === ""))
    return "has an empty part; a task token (a JWT) has 3 non-empty parts";
  if (!/^[A-Za-z0-9_.-]+$/.test(token))
    return "holds a character that is not base64url (A–Z, a–z, 0–9, - and _)";
  return undefined;
}

/**
 * A client for an agent that holds only a task token: plain `fetch`, JSON in and out. The ticket and
 * run are the token's; nothing the agent sends can name another.
 *
 * @example
 * import { createRelayClient } from "formletter/relay";
 * import { parseToolCall } from "formletter/llm";
 * const relay = createRelayClient({ url: process.env.FORMLETTER_RELAY_URL ?? "", token: process.env.FORMLETTER_TASK_TOKEN ?? "" });
 * const { tools } = await relay.tools("openai");
 * const reply = await relay.propose(parseToolCall(call.name, call.arguments));
 * if (reply.outcome === "escalate" && reply.hint) retryWith(reply.hint);
 */
export function createRelayClient(options: RelayClientOptions): RelayClient {
  let base: URL;
  try {
    base = new URL(options?.url);
  } catch {
    throw new RelayError("relay_invalid", "createRelayClient: url must be an absolute http(s) URL");
  }
  if (base.protocol !== "http:" && base.protocol !== "https:")
    throw new RelayError("relay_invalid", "createRelayClient: url must use http or https");
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  if (typeof options.token !== "string" || options.token === "")
    throw new RelayError("relay_invalid", "createRelayClient: token is empty; pass the run's task token");
  const tokenProblem = taskTokenProblem(options.token);
  if (tokenProblem !== undefined)
    throw new RelayError(
      "relay_invalid",
      `createRelayClient: the token ${tokenProblem}; pass the task token exactly as formletter token mint printed it`,
    );
  const timeoutMs = options.timeoutMs ?? 15_000;
  const send = options.fetch ?? globalThis.fetch;

  const call = async <T>(path: string, init: { method: "GET" | "POST"; body?: unknown }): Promise<T> => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.token}`,
      accept: "application/json",
    };
    if (init.body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await send(new URL(path, base), {
        method: init.method,
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
    } catch (cause) {
      const timeout = cause instanceof Error && cause.name === "TimeoutError";
      throw new RelayRequestError(
        0,
        timeout ? "timeout" : "network",
        timeout
          ? `the relay did not answer within ${timeoutMs} ms`
          : `the relay at ${base.origin} could not be reached`,
        { cause },
      );
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (response.ok && body !== undefined) return body as T;
    const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    const code = typeof error?.code === "string" ? error.code : `http_${response.status}`;
    const message = typeof error?.message === "string" ? error.message : "no explanation given";
    const retryAfter = Number(response.headers.get("retry-after"));
    throw new RelayRequestError(
      response.status,
      code,
      `the relay refused the request (${response.status} ${code}): ${message}`,
      {
        retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
      },
    );
  };

  return {
    propose: (output, proposeOptions = {}) =>
      call<ProposalReply>("v1/proposals", {
        method: "POST",
        body: { output, ...(proposeOptions.tags === undefined ? {} : { tags: proposeOptions.tags }) },
      }),
    tools: (provider, toolsOptions = {}) => {
      const query = new URLSearchParams({ provider });
      if (toolsOptions.template !== undefined) query.set("template", toolsOptions.template);
      if (toolsOptions.cache !== undefined) query.set("cache", toolsOptions.cache);
      return call(`v1/tools?${query}`, { method: "GET" });
    },
    describe: async (describeOptions = {}) => {
      const path =
        describeOptions.cache === undefined ? "v1/describe" : `v1/describe?cache=${describeOptions.cache}`;
      return (await call<{ description: string }>(path, { method: "GET" })).description;
    },
  };
}
