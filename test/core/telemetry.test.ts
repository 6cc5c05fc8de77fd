/**
 * Spans through @opentelemetry/api: a tiny recording tracer provider (and an AsyncLocalStorage context
 * manager, for parents) stands in for an SDK, so the test sees exactly what formletter hands the API.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { readFileSync } from "node:fs";
import {
  type Attributes,
  type Context,
  type ContextManager,
  context,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/core/decision/decision.js";
import { formletterVersion } from "../../src/core/version.js";
import { createOutbox, DeliveryError, memoryStore, type Transport } from "../../src/index.js";
import { propertyCatalog, propertyTicket } from "../fixtures/property.js";

interface Recorded {
  name: string;
  scope: string;
  attributes: Attributes;
  events: { name: string; attributes?: Attributes }[];
  status?: SpanStatus;
  parent?: string;
  spanId: string;
  ended: boolean;
}

const recorded: Recorded[] = [];
let nextId = 0;

class RecordingSpan implements Span {
  readonly #context: SpanContext;
  constructor(readonly record: Recorded) {
    this.#context = { traceId: "1".repeat(32), spanId: record.spanId, traceFlags: 1 };
  }
  spanContext = () => this.#context;
  setAttribute(key: string, value: Attributes[string]) {
    this.record.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes) {
    Object.assign(this.record.attributes, attributes);
    return this;
  }
  addEvent(name: string, attributes?: Attributes) {
    this.record.events.push({ name, ...(attributes === undefined ? {} : { attributes }) });
    return this;
  }
  addLink = () => this;
  addLinks = () => this;
  setStatus(status: SpanStatus) {
    this.record.status = status;
    return this;
  }
  updateName(name: string) {
    this.record.name = name;
    return this;
  }
  end() {
    this.record.ended = true;
  }
  isRecording = () => !this.record.ended;
  recordException(exception: unknown) {
    this.addEvent("exception", { message: String(exception) });
  }
}

const tracerOf = (scope: string): Tracer => {
  const startSpan = (name: string, options: SpanOptions = {}, parent: Context = context.active()) => {
    const record: Recorded = {
      name,
      scope,
      attributes: { ...options.attributes },
      events: [],
      spanId: (++nextId).toString(16).padStart(16, "0"),
      ended: false,
    };
    const parentId = trace.getSpan(parent)?.spanContext().spanId;
    if (parentId !== undefined) record.parent = parentId;
    recorded.push(record);
    return new RecordingSpan(record);
  };
  return {
    startSpan,
    startActiveSpan(name: string, ...rest: unknown[]) {
      const fn = rest.pop() as (span: Span) => unknown;
      const [options, parent] = rest as [SpanOptions | undefined, Context | undefined];
      const base = parent ?? context.active();
      const span = startSpan(name, options, base);
      return context.with(trace.setSpan(base, span), fn, undefined, span);
    },
  } as Tracer;
};

const provider: TracerProvider = {
  getTracer: (name, version) => tracerOf(`${name}@${version ?? ""}`),
};

const storage = new AsyncLocalStorage<Context>();
const contextManager: ContextManager = {
  active: () => storage.getStore() ?? ROOT_CONTEXT,
  with: (ctx, fn, thisArg, ...args) => storage.run(ctx, () => fn.call(thisArg, ...args)),
  bind: (_ctx, target) => target,
  enable() {
    return this;
  },
  disable() {
    storage.disable();
    return this;
  },
};

beforeAll(() => {
  expect(trace.setGlobalTracerProvider(provider)).toBe(true);
  expect(context.setGlobalContextManager(contextManager)).toBe(true);
});
afterAll(() => {
  trace.disable();
  context.disable();
});
beforeEach(() => {
  recorded.length = 0;
});

// Every value the records, the model and the transport can bring: none may reach a span.
const canaries = {
  name: "Canary-Name-q7Zx",
  unit: "Canary-Unit-w3Vk",
  email: "canary-mail-h8Jd@canary-host.example",
  note: "Canary-Note-p2Lm",
  output: "Canary-Output-r5Tn",
  error: "Canary-Transport-Error-y6Bc",
} as const;

function canaryTicket(ticketId: string) {
  const ticket = propertyTicket(ticketId);
  const [contractor] = ticket.contractors;
  const [order] = ticket.work_orders;
  if (contractor === undefined || order === undefined) throw new Error("fixture changed");
  contractor.name = canaries.name;
  contractor.email = canaries.email;
  order.unit = canaries.unit;
  return ticket;
}

function proposalFor(ticket: ReturnType<typeof canaryTicket>, template = "completion_check") {
  const handles = propertyCatalog.handles(ticket);
  const contractor = handles.get("contractors", ticket.contractors[0]?.id ?? "") ?? "";
  const order = handles.get("work_orders", ticket.work_orders[0]?.id ?? "") ?? "";
  return { template, slots: { order, contractor, to: contractor } };
}

/** A transport that fails once (retryably, quoting the message as careless ones do), then delivers. */
function flakyTransport(): Transport & { sent: Message[] } {
  const sent: Message[] = [];
  return {
    name: "flaky",
    sent,
    async deliver(message) {
      if (sent.push(message) === 1)
        throw new DeliveryError(`${canaries.error} for ${message.to}: ${message.text}`, { retryable: true });
      return { id: "receipt-1" };
    },
  };
}

const spansNamed = (name: string) => recorded.filter((span) => span.name === name);

/** Everything a span exposes, as one text to search. */
const exposed = () =>
  JSON.stringify(
    recorded.map(({ name, attributes, events, status }) => ({ name, attributes, events, status })),
  );

describe("spans", () => {
  it("names the instrumentation scope formletter, at the package's version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(formletterVersion).toBe(pkg.version);
    propertyCatalog.decide({ escalate: "other" }, canaryTicket("T-1"));
    expect(recorded[0]?.scope).toBe(`formletter@${pkg.version}`);
  });

  it("traces decide() with the template, outcome and reason", () => {
    const ticket = canaryTicket("T-1");
    propertyCatalog.decide(proposalFor(ticket), ticket);
    propertyCatalog.decide({ template: "nope-Canary-Template" }, ticket);
    const [sent, unknown] = spansNamed("formletter.decide");
    expect(sent).toMatchObject({
      ended: true,
      attributes: { "formletter.template": "completion_check", "formletter.outcome": "send" },
    });
    // The model's own template name is not a template: it stays out of the span.
    expect(unknown?.attributes).toEqual({
      "formletter.outcome": "escalate",
      "formletter.escalation.reason": "unknown_template",
    });
  });

  it("traces handle() around decide, the store transaction and the delivery, with counts and statuses", async () => {
    const transport = flakyTransport();
    const store = memoryStore();
    const outbox = createOutbox({
      catalog: propertyCatalog,
      load: canaryTicket,
      store,
      transports: { email: transport },
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const ticket = canaryTicket("T-1");
    const result = await outbox.handle({ ticketId: "T-1", runId: "r-1", output: proposalFor(ticket) });
    expect(result.delivery?.status).toBe("delivered");

    const [handle] = spansNamed("formletter.handle");
    expect(handle).toMatchObject({
      ended: true,
      attributes: {
        "formletter.mode": "live",
        "formletter.template": "completion_check",
        "formletter.outcome": "send",
        "formletter.duplicate": false,
        "formletter.delivery.status": "delivered",
        "formletter.delivery.attempts": 2,
      },
    });
    const transactions = spansNamed("formletter.store.transaction");
    expect(transactions.map((span) => span.attributes)).toEqual([
      { "formletter.store": "memory", "formletter.store.operation": "record_decision" },
      { "formletter.store": "memory", "formletter.store.operation": "settle_delivery" },
    ]);
    const [delivery] = spansNamed("formletter.delivery");
    expect(delivery).toMatchObject({
      attributes: {
        "formletter.template": "completion_check",
        "formletter.channel": "email",
        "formletter.transport": "flaky",
        "formletter.delivery.status": "delivered",
        "formletter.delivery.attempts": 2,
      },
    });
    expect(delivery?.status).toBeUndefined();
    // decide, the transactions and the delivery are children of the handle span.
    for (const child of [...spansNamed("formletter.decide"), ...transactions, delivery])
      expect(child?.parent).toBe(handle?.spanId);
    await outbox.close();
  });

  it("marks a failed delivery and an escalation without quoting the error, and flush() traces its deliveries", async () => {
    let failing = true;
    const transport: Transport = {
      name: "broken",
      async deliver(message) {
        if (failing)
          throw new DeliveryError(`${canaries.error} ${message.to} ${message.text}`, { retryable: false });
        return { id: "receipt-2" };
      },
    };
    const outbox = createOutbox({
      catalog: propertyCatalog,
      load: canaryTicket,
      store: memoryStore(),
      transports: { email: transport },
    });
    const ticket = canaryTicket("T-2");
    const failed = await outbox.handle({ ticketId: "T-2", runId: "r", output: proposalFor(ticket) });
    expect(failed.delivery?.status).toBe("failed");
    const escalated = await outbox.handle({
      ticketId: "T-2",
      runId: "r",
      output: JSON.stringify({ escalate: "other", note: canaries.note, extra: canaries.output }),
    });
    expect(escalated.decision.outcome).toBe("escalate");
    const approval = await outbox.handle({
      ticketId: "T-2",
      runId: "r",
      output: proposalFor(ticket, "payment_release"),
    });
    expect(approval.queueItemId).toBeDefined();
    failing = false;
    await outbox.queue.approve(approval.queueItemId ?? "", { by: "ana" });
    await outbox.flush();

    const deliveries = spansNamed("formletter.delivery");
    expect(deliveries[0]).toMatchObject({
      attributes: { "formletter.delivery.status": "failed", "formletter.delivery.attempts": 1 },
      status: { code: 2, message: "delivery failed" },
    });
    const handles = spansNamed("formletter.handle").map((span) => span.attributes);
    expect(handles[1]).toMatchObject({
      "formletter.outcome": "escalate",
      "formletter.escalation.reason": "invalid_proposal",
    });
    expect(handles[2]).toMatchObject({
      "formletter.template": "payment_release",
      "formletter.escalation.reason": "approval_required",
    });
    await outbox.close();
  });

  it("puts no record value, recipient, rendered text, note, output or error text in any span", async () => {
    const transport = flakyTransport();
    const outbox = createOutbox({
      catalog: propertyCatalog,
      load: canaryTicket,
      store: memoryStore(),
      transports: { email: transport },
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const ticket = canaryTicket("T-3");
    await outbox.handle({ ticketId: "T-3", runId: "r", output: proposalFor(ticket) });
    await outbox.handle({
      ticketId: "T-3",
      runId: "r",
      output: proposalFor(ticket),
    });
    await outbox.handle({ ticketId: "T-3", runId: "r", output: { escalate: "other", note: canaries.note } });
    await outbox.handle({ ticketId: "T-3", runId: "r", output: `${canaries.output} not JSON` });
    await outbox.flush();
    await outbox.close();

    const [message] = transport.sent;
    expect(message).toBeDefined();
    expect(spansNamed("formletter.delivery").length).toBeGreaterThan(0);
    const text = exposed();
    const forbidden = [
      ...Object.values(canaries),
      message?.to ?? "",
      message?.subject ?? "",
      message?.text ?? "",
      ...(message?.text.split("\n").filter((line) => line.length > 8) ?? []),
    ];
    for (const value of forbidden) expect(text.toLowerCase()).not.toContain(value.toLowerCase());
  });
});
