/**
 * OpenTelemetry spans, through `@opentelemetry/api` only: the application registers a tracer provider
 * (or none, and every span is the API's no-op). Spans carry names, ids, counts and outcomes, never
 * content: no message text, subject, recipient, record value, model output or note, since traces are
 * shipped to systems with wider access than the audit log. The API is a required peer dependency, so
 * this module shares the application's one copy of it, and with it the registered provider
 * (docs/observability.md, "One copy of the API").
 */
import {
  type Attributes,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { Decision } from "./decision/decision.js";
import { formletterVersion } from "./version.js";

/** The span names formletter starts. */
export const spanNames = {
  decide: "formletter.decide",
  handle: "formletter.handle",
  transaction: "formletter.store.transaction",
  delivery: "formletter.delivery",
} as const;

/** Got once: the API's proxy tracer follows whichever provider the application registers, before or after. */
export const tracer = trace.getTracer("formletter", formletterVersion);

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
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.end();
}

// What the API's proxy provider hands out while no provider is registered, and the span that stands for
// one then: with neither, a span and a context switch per call would be pure cost.
const unregistered = new ProxyTracerProvider().getDelegate();
const noSpan = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Whether the application has registered a tracer provider (it may, at any time). */
export function tracing(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider && provider.getDelegate() === unregistered);
}

/**
 * Runs `work` inside a span that ends with it; a throw marks the span failed with `failure`. With no
 * tracer provider registered, `work` runs as it is, given a span that records nothing, as the API's
 * no-op tracer would give it.
 */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  failure: string,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (!tracing()) return work(noSpan);
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
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
}
