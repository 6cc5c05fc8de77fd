/**
 * A language model for the AI SDK tests, built on the SDK's own `MockLanguageModelV3`: each call to the
 * model (generateText's doGenerate or streamText's doStream) plays the next turn of a script, a tool call
 * or a text answer, and the prompts it was given stay readable, so a test sees what the model was told.
 */
import { MockLanguageModelV3 } from "ai/test";

/** One answer of the model: a call of a formletter tool, or text. */
export type Turn =
  | {
      readonly call: string;
      /** The tool's arguments: an object, or raw text when a test needs input that is not JSON. */
      readonly input: unknown;
      readonly id?: string;
    }
  | { readonly text: string };

type Options = NonNullable<ConstructorParameters<typeof MockLanguageModelV3>[0]>;
type Generated = Awaited<ReturnType<Extract<Options["doGenerate"], (...args: never[]) => unknown>>>;
type Prompt = MockLanguageModelV3["doGenerateCalls"][number]["prompt"];

const usage: Generated["usage"] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A model that plays `turns` in order, one per call; once they run out it answers "done". */
export function scriptedModel(turns: readonly Turn[]): MockLanguageModelV3 & {
  /** Every prompt the model was given, in order, from both generateText and streamText. */
  readonly prompts: Prompt[];
} {
  let next = 0;
  let calls = 0;
  const prompts: Prompt[] = [];
  const take = (prompt: Prompt): Turn => {
    prompts.push(prompt);
    calls += 1;
    const turn = turns[next] ?? { text: "done" };
    next += 1;
    return turn;
  };
  const toolCall = (turn: Extract<Turn, { call: string }>) => ({
    type: "tool-call" as const,
    toolCallId: turn.id ?? `call-${calls}`,
    toolName: turn.call,
    input: typeof turn.input === "string" ? turn.input : JSON.stringify(turn.input),
  });
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const turn = take(prompt);
      return "call" in turn
        ? {
            content: [toolCall(turn)],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: "text", text: turn.text }],
            finishReason: { unified: "stop", raw: undefined },
            usage,
            warnings: [],
          };
    },
    doStream: async ({ prompt }) => {
      const turn = take(prompt);
      const parts =
        "call" in turn
          ? [
              toolCall(turn),
              {
                type: "finish" as const,
                finishReason: { unified: "tool-calls" as const, raw: undefined },
                usage,
              },
            ]
          : [
              { type: "text-start" as const, id: "t" },
              { type: "text-delta" as const, id: "t", delta: turn.text },
              { type: "text-end" as const, id: "t" },
              { type: "finish" as const, finishReason: { unified: "stop" as const, raw: undefined }, usage },
            ];
      return {
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: "stream-start", warnings: [] });
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return Object.assign(model, { prompts });
}

/** The tool results the model was shown, in the order it saw them (each once, from its last prompt). */
export function toolResultsSeen(model: { readonly prompts: readonly Prompt[] }): unknown[] {
  const last = model.prompts.at(-1) ?? [];
  const seen: unknown[] = [];
  for (const message of last)
    if (message.role === "tool")
      for (const part of message.content) if (part.type === "tool-result") seen.push(part.output);
  return seen;
}
