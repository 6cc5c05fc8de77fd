import { clip } from "../message/sanitize.js";

/** What the model proposed, after strict parsing. Slot values are handles or keys, never text to send. */
export type Proposal =
  | {
      readonly kind: "template";
      readonly template: string;
      readonly slots: ReadonlyMap<string, string | null>;
    }
  | { readonly kind: "escalate"; readonly code: string; readonly note: string | undefined };

/** Why the output could not be read as a proposal. */
export type ProposalProblem = {
  readonly reason: "unparseable_output" | "invalid_proposal";
  readonly detail: string;
  readonly hint?: string;
};

/**
 * The model's output read once: the proposal, or why it is not one. Made only by {@link parseProposal}
 * (`catalog.parse`), so `decide()` can take it instead of the output and skip parsing it again; an
 * object that merely looks like one is parsed as any other output.
 */
export type ParsedOutput =
  | { readonly ok: true; readonly proposal: Proposal }
  | ({ readonly ok: false } & ProposalProblem);

// Results of parseProposal, so decide() trusts only what this module parsed (never a look-alike from outside).
const parsedOutputs = new WeakSet<object>();

/** True when `value` is a result of {@link parseProposal} in this copy of the package. */
export function isParsedOutput(value: unknown): value is ParsedOutput {
  return typeof value === "object" && value !== null && parsedOutputs.has(value);
}

/** Limits on the model's output; anything longer is not a choice but an attempt to write. */
export const proposalLimits = {
  maxBytes: 1_000_000,
  maxId: 64,
  maxSlotValue: 128,
  maxSlots: 64,
  maxNote: 2_000,
} as const;

const shape =
  'expected {"template": "<id>", "slots": {"<slot>": "<handle or key>"}} or {"escalate": "<code>", "note": "<text>"}';

/**
 * Parses the model's output (an object or a JSON string) strictly: only the keys of the two proposal
 * shapes, only strings, bounded lengths, own properties only (so `__proto__` is just an unknown id).
 */
export function parseProposal(output: unknown): ParsedOutput {
  if (isParsedOutput(output)) return output;
  try {
    return parseStrictly(output);
  } catch {
    // An object with throwing getters, or a Proxy: not a proposal, and never a crash.
    return invalid("reading the output threw");
  }
}

/** {@link parseProposal}, its result frozen and marked, so `decide()` takes it without parsing again. */
export function parseOutput(output: unknown): ParsedOutput {
  if (isParsedOutput(output)) return output;
  const parsed = parseProposal(output);
  if (parsed.ok) Object.freeze(parsed.proposal);
  parsedOutputs.add(Object.freeze(parsed));
  return parsed;
}

function parseStrictly(
  output: unknown,
): { ok: true; proposal: Proposal } | ({ ok: false } & ProposalProblem) {
  let value = output;
  if (typeof output === "string") {
    if (output.length > proposalLimits.maxBytes) {
      return {
        ok: false,
        reason: "unparseable_output",
        detail: `output is ${output.length} characters, over ${proposalLimits.maxBytes}`,
      };
    }
    try {
      value = JSON.parse(output);
    } catch {
      return { ok: false, reason: "unparseable_output", detail: "output is not JSON", hint: shape };
    }
  }
  if (!isPlainObject(value)) {
    return invalid(`output is ${kindOf(value)}, not an object`);
  }
  const keys = Object.keys(value);
  if (Object.hasOwn(value, "escalate")) {
    const extra = keys.find((key) => key !== "escalate" && key !== "note");
    if (extra !== undefined) return invalid(`unexpected key "${clip(extra)}" in an escalation`);
    const code = value.escalate;
    if (typeof code !== "string" || code.length === 0 || code.length > proposalLimits.maxId) {
      return invalid(`escalate must be a code string of at most ${proposalLimits.maxId} characters`);
    }
    const note = value.note;
    if (note !== undefined && note !== null && typeof note !== "string")
      return invalid("note must be a string");
    return {
      ok: true,
      proposal: { kind: "escalate", code, note: typeof note === "string" ? note : undefined },
    };
  }
  const extra = keys.find((key) => key !== "template" && key !== "slots");
  if (extra !== undefined)
    return invalid(`unexpected key "${clip(extra)}"; only "template" and "slots" are read`);
  const template = value.template;
  if (typeof template !== "string" || template.length === 0 || template.length > proposalLimits.maxId) {
    return invalid(`template must be a template id string of at most ${proposalLimits.maxId} characters`);
  }
  const slots = new Map<string, string | null>();
  const rawSlots = Object.hasOwn(value, "slots") ? value.slots : undefined;
  if (rawSlots !== undefined && rawSlots !== null) {
    if (!isPlainObject(rawSlots)) return invalid("slots must be an object of slot name → handle or key");
    const names = Object.keys(rawSlots);
    if (names.length > proposalLimits.maxSlots)
      return invalid(`slots has ${names.length} entries, over ${proposalLimits.maxSlots}`);
    for (const name of names) {
      const choice = rawSlots[name];
      if (name.length > proposalLimits.maxId) return invalid("a slot name is over 64 characters");
      if (choice === null) {
        slots.set(name, null);
        continue;
      }
      if (typeof choice !== "string") {
        return invalid(`slot "${clip(name)}" is ${kindOf(choice)}; give a handle or key as a string`);
      }
      if (choice.length > proposalLimits.maxSlotValue) {
        return invalid(
          `slot "${clip(name)}" is ${choice.length} characters; handles and keys are at most ${proposalLimits.maxSlotValue}`,
        );
      }
      slots.set(name, choice);
    }
  }
  return { ok: true, proposal: { kind: "template", template, slots } };
}

function invalid(detail: string): { ok: false } & ProposalProblem {
  return { ok: false, reason: "invalid_proposal", detail, hint: shape };
}

/** An object literal's kind of value (not an array, null, or a class instance). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `${/^[aeiou]/.test(typeof value) ? "an" : "a"} ${typeof value}`;
}
