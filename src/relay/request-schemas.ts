/**
 * What the relay accepts, as zod schemas: the routes validate bodies and query strings with these, and
 * the OpenAPI document is generated from the very same objects, so the two cannot drift apart.
 */
import { z } from "zod";
import { escalationReasons } from "../core/decision/reasons.js";
import { tagLimits } from "../core/definition/tags.js";
import { providers } from "../core/llm/providers.js";
import { queueStatuses } from "../store/index.js";

/** The body of `POST /v1/proposals`. The ticket and run come from the token. */
export const proposalRequest = z.strictObject({
  output: z.unknown().meta({
    description:
      "The model's proposal, as JSON or as its text: { template, slots } or { escalate, note? }. Required.",
  }),
  tags: z
    .record(z.string().min(1).max(tagLimits.nameLength), z.string().max(tagLimits.valueLength))
    // Names and values are held by the key and value schemas; the count here, stated as typed facts.
    .refine((tags) => Object.keys(tags).length <= tagLimits.count, {
      params: { expected: { kind: "entries", max: tagLimits.count } },
    })
    .meta({
      description: "Labels the escalation rate is grouped by, e.g. { category: damage }.",
      maxProperties: tagLimits.count,
    })
    .optional(),
  ticketId: z
    .string()
    .meta({ description: "Tolerated only when it repeats the token's ticket; otherwise 403." })
    .optional(),
  runId: z
    .string()
    .meta({ description: "Tolerated only when it repeats the token's run; otherwise 403." })
    .optional(),
});

const note = z.string().meta({ description: "Kept with the queue item's history. Never sent." });

/** The body of claim, approve and reject: optional, and may be empty. */
export const queueActionRequest = z.object({ note: note.optional() });

/** The body of resolve: how the ticket was handled. */
export const resolveRequest = z.object({
  resolution: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .meta({ description: "How it was handled, in words: 1 to 200 characters." }),
  note: note.optional(),
});

const cache = z
  .enum(["ticket", "prefix"])
  .meta({
    description:
      '"prefix": the tools every ticket shares (and the description that goes with them); "ticket" unless told.',
  })
  .optional();

/** The query of `GET /v1/tools`. */
export const toolsQuery = z.object({
  provider: z.enum(providers as [string, ...string[]]),
  template: z
    .string()
    .meta({ description: "Stage two: only this template's tool and escalate_to_human." })
    .optional(),
  cache,
});

/** The query of `GET /v1/describe`. */
export const describeQuery = z.object({ cache });

/** The query of `GET /v1/queue`. */
export const queueQuery = z.object({
  status: z
    .enum(["all", ...queueStatuses])
    .meta({ description: 'Which items: "open" unless told.' })
    .optional(),
  reason: z.enum(escalationReasons).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/)
    .meta({ description: "Items a page, 1 to 500 (50 unless told)." })
    .optional(),
  template: z.string().optional(),
  ticketId: z.string().optional(),
  cursor: z.string().meta({ description: "The previous page's nextCursor." }).optional(),
});

const time = z.string().meta({
  description: "A time ago (7d, 24h, 30m, 2w), an ISO 8601 date or time, or epoch milliseconds.",
});

/** The query of `GET /v1/report`. */
export const reportQuery = z.object({
  since: time.optional(),
  until: time.optional(),
  volume: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .meta({ description: "Tickets a day, for the projection of human decisions." })
    .optional(),
});

/** A query string as the plain object the query schemas read: the first value of each name. */
export function queryObject(url: string): Record<string, string> {
  // No prototype: a parameter named __proto__ is a parameter like any other.
  const query: Record<string, string> = Object.create(null);
  for (const [name, value] of new URL(url).searchParams) if (!Object.hasOwn(query, name)) query[name] = value;
  return query;
}
