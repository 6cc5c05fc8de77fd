/**
 * Spans follow the tracer provider registered now, not the one at start: with none, handle() starts
 * none (and switches no context); registered later, without a new outbox, they appear.
 */
import { INVALID_SPAN_CONTEXT, type Span, type Tracer, type TracerProvider, trace } from "@opentelemetry/api";
import { afterAll, describe, expect, it } from "vitest";
import { createOutbox, memoryStore, memoryTransport } from "../../src/index.js";
import { propertyCatalog, propertyTicket } from "../fixtures/property.js";

const started: string[] = [];
const quiet: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
const tracer: Tracer = {
  startSpan(name) {
    started.push(name);
    return quiet;
  },
  startActiveSpan(name: string, ...rest: unknown[]) {
    started.push(name);
    return (rest.at(-1) as (span: Span) => unknown)(quiet);
  },
} as Tracer;
const provider: TracerProvider = { getTracer: () => tracer };

afterAll(() => {
  trace.disable();
});

describe("spans and the tracer provider", () => {
  it("start once a provider is registered, in an outbox made before it was", async () => {
    const outbox = createOutbox({
      catalog: propertyCatalog,
      load: propertyTicket,
      store: memoryStore(),
      transports: { email: memoryTransport() },
    });
    const proposal = (ticketId: string) => {
      const ticket = propertyTicket(ticketId);
      const handles = propertyCatalog.handles(ticket);
      const contractor = handles.get("contractors", ticket.contractors[0]?.id ?? "") ?? "";
      const order = handles.get("work_orders", ticket.work_orders[0]?.id ?? "") ?? "";
      return { template: "completion_check", slots: { order, contractor, to: contractor } };
    };
    const before = await outbox.handle({ ticketId: "T-1", runId: "r-1", output: proposal("T-1") });
    expect(before.delivery?.status).toBe("delivered");
    expect(started).toEqual([]);

    expect(trace.setGlobalTracerProvider(provider)).toBe(true);
    const after = await outbox.handle({ ticketId: "T-2", runId: "r-2", output: proposal("T-2") });
    expect(after.delivery?.status).toBe("delivered");
    expect(new Set(started)).toEqual(
      new Set([
        "formletter.handle",
        "formletter.decide",
        "formletter.store.transaction",
        "formletter.delivery",
      ]),
    );
    await outbox.close();
  });
});
