/**
 * A model for the Agents SDK's runner that needs no network: it implements the SDK's own `Model`
 * interface, calls one tool with the arguments a test gives (as a steered model would, any arguments
 * at all), and once the tool's result is in its input, answers with a short text and keeps the result
 * it saw, so a test can check what the model was told.
 */
import type { AgentInputItem, Model, ModelRequest, ModelResponse, StreamEvent } from "@openai/agents";
import { Usage } from "@openai/agents";

/** The one tool call the model makes: tool name, arguments (an object, or raw text as a model writes it). */
export interface FakeCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>> | string;
  /** @default "call_1" */
  readonly callId?: string;
}

export class FakeModel implements Model {
  /** Each tool result the model was given, as text, in order. */
  readonly seen: string[] = [];
  /** How many times the runner asked for a response. */
  requests = 0;

  private readonly calls: readonly FakeCall[];

  /** One call, or several the model makes at once (parallel tool calls), each with its own call id. */
  constructor(call: FakeCall | readonly FakeCall[]) {
    this.calls = Array.isArray(call) ? call : [call as FakeCall];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests += 1;
    const input: readonly AgentInputItem[] = Array.isArray(request.input) ? request.input : [];
    const last = input.at(-1);
    if (last?.type === "function_call_result") {
      // Every result since the model's own calls, in the order the runner gives them.
      const results = input.filter((item) => item.type === "function_call_result");
      const said = results.slice(-this.calls.length).map((item) => resultText(item.output));
      this.seen.push(...said);
      return respond([
        {
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: `The tool said: ${said.join(" / ")}` }],
        },
      ]);
    }
    return respond(
      this.calls.map(({ tool, args, callId }, index) => ({
        type: "function_call" as const,
        callId: callId ?? `call_${index + 1}`,
        name: tool,
        arguments: typeof args === "string" ? args : JSON.stringify(args),
        status: "completed" as const,
      })),
    );
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const response = await this.getResponse(request);
    yield {
      type: "response_done",
      response: {
        id: `fake-${this.requests}`,
        usage: usageOf(response.usage),
        // The two output types describe the same items; the stream's is a narrower declaration of them.
        output: response.output as Done["response"]["output"],
      },
    };
  }
}

type Done = Extract<StreamEvent, { type: "response_done" }>;

function respond(output: ModelResponse["output"]): ModelResponse {
  return { usage: new Usage(), output };
}

function usageOf(usage: Usage) {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
  };
}

/** A tool result as the model reads it: a string, or the SDK's text content. */
function resultText(output: unknown): string {
  if (typeof output === "string") return output;
  const parts = Array.isArray(output) ? output : [output];
  return parts
    .map((part) =>
      typeof part === "object" && part !== null && "text" in part ? String(part.text) : JSON.stringify(part),
    )
    .join("");
}
