import { templateError } from "../errors.js";
import { channelLimit } from "./channel-limits.js";
import { type Channel, recipientKind } from "./channels.js";
import {
  type CompiledSlot,
  type TemplateConfig,
  type TemplateEffect,
  type TemplateLimits,
  templateEffects,
} from "./template-types.js";
import type { compileBody } from "./text-parts.js";
import { type Part, variablePlacement } from "./text-parts.js";
import { choiceLabelProblem, variableDensityProblem } from "./whatsapp-rules.js";

/**
 * The definition-time checks of a template that look at it whole: limits, the recipient, the tags of its
 * texts against its slots, and its channel's rules. Each failure throws, naming template, slot and fix.
 */

type Compiled = ReturnType<typeof compileBody>;

export function checkLimits(id: string, limits: unknown): TemplateLimits {
  if (typeof limits !== "object" || limits === null) {
    templateError(
      id,
      "limits are required: add limits: { perTicket: 1, perDay: 500 } (the worst case must be a number)",
    );
  }
  const { perTicket, perDay } = limits as Record<string, unknown>;
  for (const [name, value] of [
    ["perTicket", perTicket],
    ["perDay", perDay],
  ] as const) {
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
      templateError(id, `limits.${name} must be a whole number of at least 1`);
    }
  }
  return Object.freeze({ perTicket: perTicket as number, perDay: perDay as number });
}

/** The declared effect; an irreversible one must wait for a person, however sure the model is. */
export function checkEffect(id: string, effect: unknown, approval: unknown): TemplateEffect {
  if (!templateEffects.includes(effect as TemplateEffect)) {
    templateError(
      id,
      `effect is required and must be one of ${templateEffects.map((name) => `"${name}"`).join(", ")}: say what a message does, e.g. effect: "informational"`,
    );
  }
  if (effect === "irreversible" && approval !== "human") {
    templateError(
      id,
      'an irreversible template must wait for a person: add approval: "human", or declare what it does as "reversible" if it can be called back',
    );
  }
  return effect as TemplateEffect;
}

export function checkRecipient(id: string, channel: Channel, recipient: CompiledSlot): void {
  const field = recipient.fields[0];
  if (recipient.fields.length !== 1 || field === undefined) {
    templateError(id, "the recipient slot shows exactly one field: the address", "to");
  }
  const kind = recipientKind[channel];
  if (kind === "email" && field.format.kind !== "email") {
    templateError(
      id,
      `recipient field "${field.field}" is not an e-mail field; declare it as z.email() or pass as: format.email()`,
      "to",
    );
  }
  if (kind === "phone" && field.format.kind !== "phone") {
    templateError(
      id,
      `recipient field "${field.field}" is not a phone field; pass as: format.phone({ defaultCountry })`,
      "to",
    );
  }
  if (kind === "chat_id" && field.format.kind !== "text") {
    templateError(
      id,
      `recipient field "${field.field}" must be a chat user or channel id shown as text`,
      "to",
    );
  }
  if (recipient.slot.optional) templateError(id, "the recipient cannot be optional", "to");
}

export function checkTags(
  id: string,
  slots: readonly CompiledSlot[],
  texts: readonly (Compiled | undefined)[],
): void {
  const byName = new Map(slots.map((slot) => [slot.name, slot]));
  const used = new Set<string>();
  const valueTags = new Map<string, CompiledSlot>();
  for (const slot of slots) for (const field of slot.fields) valueTags.set(field.tag, slot);
  for (const slot of slots) if (slot.slot.kind === "choice") valueTags.set(slot.name, slot);

  const visit = (parts: readonly Part[], guards: ReadonlySet<string>) => {
    for (const part of parts) {
      if (part.type === "text") continue;
      if (part.type === "value") {
        const slot = valueTags.get(part.tag);
        if (slot === undefined) {
          templateError(
            id,
            `{{${part.tag}}} is not a declared slot; declared: ${[...valueTags.keys()].join(", ")}`,
          );
        }
        if (slot.slot.optional && !guards.has(slot.name)) {
          templateError(
            id,
            `optional slot is shown outside {{#${slot.name}}}…{{/${slot.name}}}; wrap it so a missing value hides the text`,
            slot.name,
          );
        }
        used.add(slot.name);
        continue;
      }
      const [name = "", key] = part.tag.split(".", 2);
      const slot = byName.get(name);
      if (slot === undefined) {
        templateError(id, `section {{#${part.tag}}} names no declared slot`);
      }
      if (key !== undefined) {
        if (slot.slot.kind !== "choice" || !slot.keys.has(key) || part.tag.split(".").length !== 2) {
          templateError(
            id,
            `section {{#${part.tag}}} must name a key of a choice slot: ${[...slot.keys.keys()].map((k) => `${name}.${k}`).join(", ") || "none"}`,
            name,
          );
        }
      } else if (!slot.slot.optional) {
        templateError(
          id,
          `section {{#${name}}} is over a required slot; sections are allowed only over optional slots and choice keys ({{#${name}.key}})`,
          name,
        );
      }
      used.add(name);
      const inner = new Set(guards);
      if (!part.inverted && key === undefined) inner.add(name);
      visit(part.parts, inner);
    }
  };
  for (const text of texts) if (text !== undefined) visit(text.parts, new Set());
  for (const slot of slots) {
    if (slot.name !== "to" && !used.has(slot.name)) {
      templateError(id, "is declared but never used in the subject or body; use it or remove it", slot.name);
    }
  }
}

function validSegments(maxSegments: number): boolean {
  return Number.isInteger(maxSegments) && maxSegments >= 1 && maxSegments <= 10;
}

export function checkChannel(
  id: string,
  config: TemplateConfig,
  slots: readonly CompiledSlot[],
  texts: { subject: Compiled | undefined; body: Compiled; html: Compiled | undefined },
  maxSegments: number,
): void {
  const { channel } = config;
  if (texts.subject !== undefined && /[\r\n]/.test(texts.subject.literal)) {
    templateError(id, "subject must be a single line");
  }
  if (texts.html !== undefined && channel !== "email")
    templateError(id, "html is only for the email channel");
  if (config.maxSegments !== undefined && channel !== "sms")
    templateError(id, "maxSegments is only for the sms channel");
  // The fixed text alone, checked by the same function decide() checks the rendered message with.
  const fixed = { subject: texts.subject?.literal, body: texts.body.literal };
  const broken =
    channel === "sms" && !validSegments(maxSegments)
      ? undefined
      : channelLimit(channel, fixed, maxSegments).broken;
  switch (channel) {
    case "email":
      if (texts.subject === undefined) templateError(id, "an email needs a subject");
      if (broken !== undefined) templateError(id, `subject is over ${broken.max} characters`);
      break;
    case "sms": {
      if (texts.subject !== undefined)
        templateError(id, "an SMS has no subject; move the text into the body");
      if (!validSegments(maxSegments)) {
        templateError(id, "maxSegments must be a whole number from 1 to 10");
      }
      if (broken !== undefined) {
        templateError(
          id,
          `the body's fixed text alone takes ${broken.count} ${broken.encoding} segments, over maxSegments ${broken.max}`,
        );
      }
      break;
    }
    case "whatsapp": {
      const placement = variablePlacement(texts.body.parts);
      if (placement.startsWithVariable || placement.endsWithVariable) {
        templateError(
          id,
          "WhatsApp templates may not start or end with a variable; add fixed text before and after",
        );
      }
      if (placement.adjacent !== undefined) {
        const [a, b] = placement.adjacent;
        templateError(
          id,
          `WhatsApp templates may not put variables next to each other ({{${a}}} {{${b}}}); add fixed text between them`,
        );
      }
      if (broken?.part === "body")
        templateError(id, `the body's fixed text is over WhatsApp's ${broken.max} characters`);
      const density = variableDensityProblem(texts.body.parts, texts.body.literal);
      if (density !== undefined) templateError(id, density);
      if (broken?.part === "header")
        templateError(id, `the header (subject) is over WhatsApp's ${broken.max} characters`);
      for (const slot of slots) {
        if (slot.slot.kind === "choice") {
          for (const [key, label] of Object.entries(slot.slot.choices)) {
            const problem = choiceLabelProblem(label);
            if (problem !== undefined) templateError(id, `choice "${key}": its label ${problem}`, slot.name);
          }
        }
        if (slot.fields.some((field) => field.format.multiline)) {
          templateError(
            id,
            "WhatsApp values may not contain line breaks; use a single-line format",
            slot.name,
          );
        }
      }
      break;
    }
    case "chat":
      break;
  }
}
