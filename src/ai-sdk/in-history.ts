import type { ModelMessage } from "ai";

/**
 * Whether the conversation already holds the tool call `toolCallId`. The AI SDK asks `needsApproval`
 * and `execute` about a call the model just made with the messages before it, and about a call it
 * resumes after an approval response with a history that holds the call, so this tells the two apart.
 * A history is written by the client: a call found here is never decided again, only looked up.
 */
export function inHistory(messages: readonly ModelMessage[] | undefined, toolCallId: string): boolean {
  if (!Array.isArray(messages)) return false;
  for (const message of messages) {
    if (message?.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const part of message.content)
      if (part?.type === "tool-call" && part.toolCallId === toolCallId) return true;
  }
  return false;
}
