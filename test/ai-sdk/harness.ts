/**
 * What the AI SDK tests share: an outbox over a memory store with the property-management catalog
 * (payment_release needs a person's approval), its formletter tools, and one function per way the
 * SDK runs a model — generateText and streamText — returning the same view of a run, so every scene
 * is played through both.
 */
import { type ContentPart, generateText, type ModelMessage, stepCountIs, streamText, type ToolSet } from "ai";
import { afterEach } from "vitest";
import { formletterApprovals, formletterTools } from "../../src/ai-sdk/index.js";
import { createOutbox, memoryStore, memoryTransport, type Outbox, type Store } from "../../src/index.js";
import { propertyCatalog, propertyTicket, proposal } from "../fixtures/property.js";
import { scriptedModel, type Turn } from "./scripted-model.js";

const open: Outbox[] = [];
afterEach(async () => {
  for (const outbox of open.splice(0)) await outbox.close();
});

/** The outbox's contact key, which first contact and suppressions hash destinations with. */
export const contactKey = "a secret of at least thirty-two bytes, for tests";

/** An outbox with the fixture catalog and a memory transport, its tools for ticket T-1 and its approvals. */
export async function rig(
  options: {
    firstContact?: "hold";
    /** Keep suppressions (with the contact key): a hard bounce or a complaint stops a send. */
    suppressions?: true;
    load?: (ticketId: string) => unknown;
    store?: Store;
  } = {},
) {
  const transport = memoryTransport();
  const store = options.store ?? memoryStore();
  const outbox = createOutbox({
    catalog: propertyCatalog,
    load: options.load ?? propertyTicket,
    store,
    transports: { email: transport },
    ...(options.firstContact === undefined ? {} : { firstContact: options.firstContact }),
    ...(options.firstContact === undefined && options.suppressions === undefined ? {} : { contactKey }),
  });
  open.push(outbox);
  const formletter = await formletterTools({ outbox, ticketId: "T-1", runId: "run-1" });
  const approvals = formletterApprovals({ outbox, ticketId: "T-1" });
  return { outbox, store, transport, formletter, approvals };
}

/** The arguments of a valid call of `template` on ticket T-1. */
export function argsOf(template: string, extra: Record<string, string> = {}): Record<string, string> {
  return proposal("T-1", template, extra).slots;
}

/**
 * What a run left: its last step's content, the messages it added, every tool's output (also of calls
 * resumed after an approval response, which are no step of their own), any stream errors.
 */
export interface Run {
  readonly content: readonly ContentPart<ToolSet>[];
  readonly messages: ModelMessage[];
  readonly outputs: unknown[];
  readonly text: string;
  readonly errors: unknown[];
}

export type Drive = (
  model: ReturnType<typeof scriptedModel>,
  tools: ToolSet,
  messages: ModelMessage[],
) => Promise<Run>;

/** The settings both runs share: up to five steps, and every tool's output (or throw) kept in `outputs`. */
function settings(
  model: ReturnType<typeof scriptedModel>,
  tools: ToolSet,
  messages: ModelMessage[],
  outputs: unknown[],
) {
  return {
    model,
    tools,
    messages,
    stopWhen: stepCountIs(5),
    experimental_onToolCallFinish: (event: { success: boolean; output?: unknown; error?: unknown }) => {
      outputs.push(event.success ? event.output : { thrown: event.error });
    },
  };
}

/** The two ways the SDK runs a model. */
export const drives: Readonly<Record<"generateText" | "streamText", Drive>> = {
  generateText: async (model, tools, messages) => {
    const outputs: unknown[] = [];
    const result = await generateText(settings(model, tools, messages, outputs));
    return {
      content: result.content,
      messages: result.response.messages,
      outputs,
      text: result.text,
      errors: [],
    };
  },
  streamText: async (model, tools, messages) => {
    const outputs: unknown[] = [];
    const errors: unknown[] = [];
    const result = streamText({
      ...settings(model, tools, messages, outputs),
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await result.consumeStream();
    return {
      content: await result.content,
      messages: (await result.response).messages,
      outputs,
      text: await result.text,
      errors,
    };
  },
};

/** A conversation's first message. */
export const ask: ModelMessage[] = [{ role: "user", content: "Please handle ticket T-1." }];

/** A model that plays `turns`, then answers "done". */
export function modelOf(...turns: Turn[]) {
  return scriptedModel(turns);
}

/** The approval requests of a run's last step. */
export function approvalRequests(run: Run) {
  return run.content.flatMap((part) => (part.type === "tool-approval-request" ? [part] : []));
}
