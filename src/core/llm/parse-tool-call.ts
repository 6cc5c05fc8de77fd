import { isPlainObject, proposalLimits } from "../decision/proposal.js";
import { merged } from "../merged.js";
import { noneValue, toolNames } from "./names.js";

/**
 * What `parseToolCall` returns: the model's call as a proposal in the shape `decide()` reads
 * (`{ template, slots }` or `{ escalate, note }`), or the raw text when the arguments are not JSON, so
 * that decide() escalates it as `unparseable_output`.
 */
export type ToolCallProposal = { readonly [key: string]: unknown } | string;

/** The structured-output wrapper's one property; it holds `{ "<tool name>": <arguments> }`. */
export const decisionKey = "decision";

/**
 * Turns a tool call (the tool's name and its arguments, as an object or a JSON string) into a proposal
 * for `decide()`. Never throws: whatever the model sent, decide() then sends or escalates with a reason.
 *
 * - a template's tool → `{ template, slots }`; `"(none)"` becomes `null` (an optional slot left empty);
 *   extra or missing arguments are kept as they are, for decide() to reject (`invalid_proposal`);
 * - `escalate_to_human` → `{ escalate: code, note }` (`model_escalated`);
 * - arguments that are not JSON → the text itself (`unparseable_output`);
 * - an unknown name, or `choose_template` (a stage-one call: pass it to `tools.next()`) →
 *   `{ template: name, slots }` (`unknown_template`);
 * - `formletter_proposal`, the name of `catalog.proposalSchema()`: the structured output
 *   `{ decision: { "<tool name>": <arguments> } }`, parsed as that call.
 *
 * Handles, keys and template ids are compared case-insensitively by decide(), so a model that changes
 * their case loses nothing.
 *
 * @example
 * import { parseToolCall } from "formletter/llm";
 * const call = response.choices[0].message.tool_calls[0].function;
 * const decision = catalog.decide(parseToolCall(call.name, call.arguments), ticketRecords);
 */
export function parseToolCall(name: unknown, args: unknown): ToolCallProposal {
  try {
    return parseCall(name, args, true);
  } catch {
    // Only a hostile object (throwing getters, a Proxy) gets here; decide() rejects a non-object `slots`.
    return { template: typeof name === "string" ? name : "", slots: "unreadable arguments" };
  }
}

function parseCall(name: unknown, args: unknown, unwrap: boolean): ToolCallProposal {
  const read = readArgs(args);
  if (!read.ok) return read.text;
  if (typeof name !== "string") return { template: name, slots: read.raw };
  const tool = name.trim().toLowerCase();
  if (tool === toolNames.escalate) return escalation(read);
  if (tool === toolNames.proposal && unwrap) return structured(read);
  if (read.value === undefined)
    return read.raw === undefined || read.raw === null
      ? { template: name }
      : { template: name, slots: read.raw };
  // No prototype: a "__proto__" argument is then an ordinary (unknown) slot name, never a prototype.
  const slots: Record<string, unknown> = Object.create(null);
  for (const [slot, value] of Object.entries(read.value)) {
    slots[slot] = typeof value === "string" && value.trim().toLowerCase() === noneValue ? null : value;
  }
  return { template: name, slots };
}

/** `escalate_to_human` arguments as decide()'s escalation; unexpected arguments stay, to be rejected. */
function escalation(read: Extract<Args, { ok: true }>): ToolCallProposal {
  if (read.value === undefined) return { escalate: read.raw };
  const { code, note, ...rest } = read.value;
  const extra: Record<string, unknown> = Object.create(null);
  // Renamed so an argument called "escalate" cannot replace the code, and is still reported.
  for (const [key, value] of Object.entries(rest)) extra[key === "escalate" ? "escalate_" : key] = value;
  return merged(extra, { escalate: code, ...(note === undefined ? {} : { note }) });
}

/** The structured output `{ decision: { "<tool>": args } }`, as that tool's call; any other shape as is. */
function structured(read: Extract<Args, { ok: true }>): ToolCallProposal {
  const decision = read.value?.[decisionKey];
  const keys = read.value === undefined ? [] : Object.keys(read.value);
  if (keys.length !== 1 || !isPlainObject(decision)) return (read.value ?? {}) as ToolCallProposal;
  const calls = Object.keys(decision);
  const [call] = calls;
  if (calls.length !== 1 || call === undefined) return decision;
  return parseCall(call, decision[call], false);
}

type Args =
  | {
      readonly ok: true;
      /** The arguments as a plain object, when they are one. */
      readonly value: Readonly<Record<string, unknown>> | undefined;
      /** The arguments as given (parsed from JSON text). */
      readonly raw: unknown;
    }
  | { readonly ok: false; readonly text: string };

/** Reads tool arguments: an object, or JSON text (an empty string is no arguments). Never throws on text. */
export function readArgs(args: unknown): Args {
  let raw = args;
  if (typeof args === "string") {
    // Over the limit, decide() reports the size; parsing it first would only cost time.
    if (args.length > proposalLimits.maxBytes) return { ok: false, text: args };
    if (args.trim() === "") return { ok: true, value: undefined, raw: undefined };
    try {
      raw = JSON.parse(args);
    } catch {
      return { ok: false, text: args };
    }
  }
  return { ok: true, value: isPlainObject(raw) ? { ...raw } : undefined, raw };
}
