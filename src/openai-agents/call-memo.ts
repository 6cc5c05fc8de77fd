import type { ToolOutcome } from "../agent-tools/index.js";

/**
 * What a tool call was decided as when the runner asked whether it needs approval, kept for that same
 * call's `execute` in the same run: the outbox decides a call once, and an escalation decided twice would
 * open two queue items. Scoped by the run's context object (a new run, or a run restored in another
 * process, starts empty) and by the call's id and arguments, and taken once.
 */
export interface CallMemo {
  keep(run: object, callId: string | undefined, input: unknown, outcome: ToolOutcome): void;
  take(run: object | undefined, callId: string | undefined, input: unknown): ToolOutcome | undefined;
}

export function createCallMemo(): CallMemo {
  const runs = new WeakMap<object, Map<string, { readonly input: string; readonly outcome: ToolOutcome }>>();
  const inputOf = (input: unknown): string => {
    try {
      return JSON.stringify(input) ?? "";
    } catch {
      return "";
    }
  };
  return {
    keep(run, callId, input, outcome) {
      if (callId === undefined) return;
      let calls = runs.get(run);
      if (calls === undefined) {
        calls = new Map();
        runs.set(run, calls);
      }
      calls.set(callId, { input: inputOf(input), outcome });
    },
    take(run, callId, input) {
      if (run === undefined || callId === undefined) return undefined;
      const calls = runs.get(run);
      const kept = calls?.get(callId);
      if (kept === undefined) return undefined;
      calls?.delete(callId);
      // Another call under a reused id is decided afresh, never answered with this one's outcome.
      return kept.input === inputOf(input) ? kept.outcome : undefined;
    },
  };
}
