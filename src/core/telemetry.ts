/**
 * OpenTelemetry spans, through `@opentelemetry/api` only: the application registers a tracer provider
 * (or none, and every span is the API's no-op). Spans carry names, ids, counts and outcomes, never
 * content: no message text, subject, recipient, record value, model output or note, since traces are
 * shipped to systems with wider access than the audit log. The API is a required peer dependency, so
 * this module shares the application's one copy of it, and with it the registered provider
 * (docs/observability.md, "One copy of the API").
 *
 * The API is loaded once a provider has been registered, not when formletter is imported: every copy of
 * API 1.x keeps the registered providers in one global slot, so whether the slot holds a tracer provider
 * is known without loading the package's fifty files, which most processes would never use.
 */
import type {
  Attributes,
  Span,
  SpanContext,
  SpanStatusCode,
  Tracer,
  TracerProvider,
} from "@opentelemetry/api";
import type { Decision } from "./decision/decision.js";
import { lazyDependency } from "./lazy-dependency.js";
import { formletterVersion } from "./version.js";

const api = lazyDependency<typeof import("@opentelemetry/api")>("@opentelemetry/api");

// Where every copy of API 1.x registers the application's providers (its `registerGlobal`): a provider
// registered through any copy is found here, and the key changes only with a new major of the API.
const globalSlot = Symbol.for("opentelemetry.js.api.1");

/** The span names formletter starts. */
export const spanNames = {
  decide: "formletter.decide",
  handle: "formletter.handle",
  transaction: "formletter.store.transaction",
  delivery: "formletter.delivery",
} as const;

let proxyTracer: Tracer | undefined;

/** Got once: the API's proxy tracer follows whichever provider the application registers, before or after. */
export function tracer(): Tracer {
  proxyTracer ??= api().trace.getTracer("formletter", formletterVersion);
  return proxyTracer;
}

/** The status of a failed span: `SpanStatusCode.ERROR`, whose value API 1.x fixes. */
export const errorStatus: SpanStatusCode.ERROR = 2;

/**
 * A decision's attributes: the template id only when the catalog has it (an unknown one is what the
 * model wrote), the outcome, and the escalation reason from the closed list.
 */
export function decisionAttributes(decision: Decision): Attributes {
  const attributes: Attributes = { "formletter.outcome": decision.outcome };
  if (decision.template !== undefined) attributes["formletter.template"] = decision.template;
  if (decision.outcome === "escalate") attributes["formletter.escalation.reason"] = decision.reason;
  return attributes;
}

/**
 * Ends a span after marking it failed. The status message is the fixed text given here, never the
 * error's own message, which may quote a record value or an address.
 */
export function endFailed(span: Span, message: string): void {
  span.setStatus({ code: errorStatus, message });
  span.end();
}

// What the API's proxy provider hands out while no provider is registered: got once the API is loaded.
let unregistered: TracerProvider | undefined;

/** Whether the application has registered a tracer provider (it may, at any time). */
export function tracing(): boolean {
  const slot = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[globalSlot];
  if (slot?.trace === undefined) return false;
  const { ProxyTracerProvider, trace } = api();
  unregistered ??= new ProxyTracerProvider().getDelegate();
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider && provider.getDelegate() === unregistered);
}

// The span that stands for one while no provider is registered, as the API's no-op span does: it
// records nothing, so a span and a context switch per call are not paid for nothing.
const invalidContext: SpanContext = { traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 0 };
const noSpan: Span = {
  spanContext: () => invalidContext,
  setAttribute: () => noSpan,
  setAttributes: () => noSpan,
  addEvent: () => noSpan,
  addLink: () => noSpan,
  addLinks: () => noSpan,
  setStatus: () => noSpan,
  updateName: () => noSpan,
  end: () => undefined,
  isRecording: () => false,
  recordException: () => undefined,
};

/**
 * Runs `work` inside a span that ends with it; a throw marks the span failed with `failure`. With no
 * tracer provider registered, `work` runs as it is, given a span that records nothing, as the API's
 * no-op tracer would give it. `attributes` may be a function, called only when a span is recorded.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes | (() => Attributes),
  failure: string,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  // Not an async function: untraced, the work's own promise is handed back, with no promise of this
  // function's around it (each wrapper costs an allocation and a turn of the microtask queue). A throw
  // is still a rejection, as from an async function.
  try {
    if (!tracing()) return work(noSpan);
    const given = typeof attributes === "function" ? attributes() : attributes;
    return tracer().startActiveSpan(name, { attributes: given }, async (span) => {
      let result: T;
      try {
        result = await work(span);
      } catch (error) {
        endFailed(span, failure);
        throw error;
      }
      span.end();
      return result;
    });
  } catch (error) {
    return Promise.reject(error);
  }
}
