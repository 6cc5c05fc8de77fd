/** The tools' types fit the SDK's agents: untyped, and with a run context the caller names. */
import { Agent, type Tool } from "@openai/agents";
import { expectTypeOf, test } from "vitest";
import type { FormletterAgentTools } from "../../src/openai-agents/index.js";

test("formletter's tools are tools of an agent with the run context they were made for", () => {
  expectTypeOf<FormletterAgentTools["tools"]>().toExtend<Tool<unknown>[]>();
  expectTypeOf<FormletterAgentTools<{ user: string }>["tools"]>().toExtend<Tool<{ user: string }>[]>();
  expectTypeOf(
    new Agent<{ user: string }>({
      name: "support",
      tools: [] as FormletterAgentTools<{ user: string }>["tools"],
    }),
  ).toEqualTypeOf<Agent<{ user: string }>>();
});
