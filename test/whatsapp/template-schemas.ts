/**
 * The shapes Meta's `POST /<WABA-ID>/message_templates` and Twilio's Content API (`POST /v1/Content`,
 * type `twilio/text`) document for a text template, written as zod schemas for the export's tests.
 */
import { z } from "zod";

/** The numbers of `{{n}}` in a text, in order. */
function numbers(text: string): number[] {
  return [...text.matchAll(/\{\{(\d+)\}\}/g)].map((match) => Number(match[1]));
}

/** Meta numbers variables 1, 2, 3… in order, with one example each. */
function sequential(text: string): boolean {
  return numbers(text).every((number, index) => number === index + 1);
}

const header = z
  .object({
    type: z.literal("HEADER"),
    format: z.literal("TEXT"),
    text: z
      .string()
      .min(1)
      .max(60)
      .regex(/^[^\n]*$/),
    example: z
      .object({ header_text: z.array(z.string().min(1)).length(1) })
      .strict()
      .optional(),
  })
  .strict()
  .refine((c) => numbers(c.text).length <= 1 && sequential(c.text), "a header holds at most {{1}}")
  .refine((c) => (c.example?.header_text.length ?? 0) === numbers(c.text).length, "one example a variable");

const body = z
  .object({
    type: z.literal("BODY"),
    text: z.string().min(1).max(1024),
    example: z
      .object({ body_text: z.array(z.array(z.string().min(1)).min(1)).length(1) })
      .strict()
      .optional(),
  })
  .strict()
  .refine((c) => sequential(c.text), "variables numbered 1, 2, 3… in order")
  .refine((c) => (c.example?.body_text[0]?.length ?? 0) === numbers(c.text).length, "one example a variable")
  .refine((c) => !/^\s*\{\{|\}\}\s*$/.test(c.text), "no variable at the start or end");

export const metaTemplate = z
  .object({
    name: z.string().regex(/^[a-z0-9_]{1,512}$/),
    language: z.string().regex(/^[a-z]{2,3}(_[A-Z][A-Za-z]{1,3})?$/),
    category: z.enum(["UTILITY", "MARKETING", "AUTHENTICATION"]),
    components: z.union([z.tuple([body]), z.tuple([header, body])]),
  })
  .strict();

export const twilioContent = z
  .object({
    friendly_name: z.string().min(1).max(64),
    language: z.string().min(2),
    variables: z.record(z.string().regex(/^\d{1,16}$/), z.string().min(1).max(1600)),
    types: z.object({ "twilio/text": z.object({ body: z.string().min(1).max(1600) }).strict() }).strict(),
  })
  .strict()
  .refine(
    (c) =>
      JSON.stringify(numbers(c.types["twilio/text"].body).map(String)) ===
      JSON.stringify(Object.keys(c.variables)),
    "a sample for each variable of the body, and no other",
  );
