/**
 * The relay's replies as zod schemas: the OpenAPI document is generated from them, and the tests check
 * every reply the relay gives against that document. Written once, here, beside the types they mirror.
 */
import { z } from "zod";
import { escalationReasons } from "../core/decision/reasons.js";
import { channels } from "../core/definition/channels.js";
import { providers } from "../core/llm/providers.js";
import { queueStatuses } from "../store/index.js";

const text = z.string();
const count = z.number().int().nonnegative();
const epochMs = z.number().meta({ description: "Epoch milliseconds." });
const share = z.number().min(0).max(1);

/** Every error code the relay answers with, in `{ error: { code } }`. */
export const errorCodes = [
  "token_missing",
  "token_invalid",
  "token_expired",
  "token_revoked",
  "wrong_audience",
  "ticket_mismatch",
  "session_mismatch",
  "origin_refused",
  "method_not_allowed",
  "rate_limited",
  "unsupported_media_type",
  "body_too_large",
  "body_malformed",
  "body_invalid",
  "signature_invalid",
  "request_invalid",
  "actor_invalid",
  "records_unavailable",
  "template_not_offered",
  "not_implemented",
  "queue_item_not_found",
  "queue_transition_invalid",
  "recipient_suppressed",
  "unavailable",
  "timeout",
  "not_found",
  "internal",
] as const;

/** A relay error code. */
export type ErrorCode = (typeof errorCodes)[number];

/** Why a destination is suppressed, in the relay's own words: a provider reported a hard bounce or a complaint. */
export const suppressionCauses = ["hard_bounce", "complaint"] as const;

/** A suppression's cause, as the relay answers it. */
export type SuppressionCauseCode = (typeof suppressionCauses)[number];

/**
 * `{ error: { code, message } }`: a stable code to switch on, and a text for people built from it; a
 * `recipient_suppressed` refusal also says why the recipient is suppressed.
 */
export const errorReply = z
  .object({
    error: z.object({
      code: z.enum(errorCodes),
      message: text.meta({
        description:
          "Written by the relay from the code, the place (the relay's own field names, or a position such as 'a key of field tags') and what was expected: never internals, and never anything the request carried.",
      }),
      suppression: z
        .object({ cause: z.enum(suppressionCauses) })
        .meta({
          description:
            "With recipient_suppressed: why the draft's recipient is suppressed (a provider reported a hard bounce, or its owner complained). Nothing was sent and the item still waits: lift the suppression, then approve again.",
        })
        .optional(),
    }),
  })
  .meta({ description: "Every error answer." });

export const healthReply = z.object({ status: z.literal("ok"), catalogVersion: text });

const expected = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("templates"), ids: z.array(text) }),
  z.object({ kind: z.literal("codes"), codes: z.array(text) }),
  z.object({ kind: z.literal("slots"), names: z.array(text) }),
  z.object({ kind: z.literal("keys"), keys: z.array(text) }),
  z.object({ kind: z.literal("records"), collection: text, fitting: count }),
]);

/** What a proposal's answer carries (see `ProposalReply`): never the message, recipient or values. */
export const proposalReply = z.object({
  outcome: z.enum(["send", "escalate"]),
  reason: z.enum(escalationReasons).optional(),
  hint: text
    .meta({ description: "Valid template ids, handles or keys, where a corrected proposal could succeed." })
    .optional(),
  slot: text.meta({ description: "The slot at fault, when one is." }).optional(),
  expected: expected.optional(),
  duplicate: z
    .literal(true)
    .meta({ description: "An identical proposal was handled before: nothing new was sent." })
    .optional(),
  queueItemId: text
    .meta({ description: "The queue item of a draft waiting for a person's approval (approval_required)." })
    .optional(),
});

export const describeReply = z.object({
  description: text.meta({ description: "The ticket's templates and choosable records, for the prompt." }),
});

const preflightProblem = z.object({
  provider: z.enum(["openai", "anthropic"]),
  rule: text,
  limit: z.number(),
  actual: z.number(),
  tool: text.optional(),
  slot: text.optional(),
  detail: text,
});

export const toolsReply = z.object({
  provider: z.enum(providers as [string, ...string[]]),
  stage: z.enum(["single", "choose_template", "slots"]),
  cache: z.enum(["ticket", "prefix"]),
  tools: z
    .union([z.array(z.record(z.string(), z.unknown())), z.record(z.string(), z.unknown())])
    .meta({ description: "The tools as the provider's API takes them (an object for the AI SDK)." }),
  tokens: count,
  templates: z.array(text),
  omitted: z.array(z.object({ template: text, reason: text, slot: text.optional() })),
  widened: z.array(text),
  degraded: z
    .object({ reason: text, problems: z.array(preflightProblem), opened: z.array(text).optional() })
    .optional(),
  problems: z.array(preflightProblem),
  catalogVersion: text.meta({ description: "The version of the catalog the tools were built from." }),
});

const message = z.object({
  template: text,
  channel: z.enum(channels as [string, ...string[]]),
  to: text,
  subject: text.optional(),
  text,
  html: text.optional(),
  sms: z.object({ segments: count, encoding: z.enum(["GSM-7", "UCS-2"]) }).optional(),
  locale: text.optional(),
});

export const queueItem = z.object({
  id: text,
  status: z.enum(queueStatuses as [string, ...string[]]),
  reason: z.enum(escalationReasons),
  ticketId: text,
  runId: text,
  template: text.optional(),
  detail: text,
  key: text.optional(),
  draft: message.optional(),
  note: text.optional(),
  createdAt: epochMs,
  claimedBy: text.optional(),
  claimedAt: epochMs.optional(),
  closedBy: text.optional(),
  closedAt: epochMs.optional(),
  resolution: text.optional(),
  closeNote: text.optional(),
  auditId: text,
  outboundId: text.optional(),
});

/** One item as `GET /v1/queue/{id}` gives it: with the typed fields of its escalation. */
export const queueItemDetail = queueItem.extend({
  facts: z
    .record(z.string(), z.unknown())
    .meta({
      description:
        "The typed fields of the escalation that opened the item (slot, expected, limit, max, count, code…), as its audit event keeps them.",
    })
    .optional(),
  decidedUnder: z.object({ templateVersion: text.optional(), catalogVersion: text.optional() }).meta({
    description:
      "The template and catalog versions of the decision that opened the item: an approved draft is sent as decided under them.",
  }),
});

export const queuePage = z.object({
  items: z.array(queueItem),
  nextCursor: text.meta({ description: "Pass as `cursor` for the next page." }).optional(),
});

const outbound = z.object({
  id: text,
  key: text,
  ticketId: text,
  runId: text,
  template: text,
  message,
  status: z.enum(["pending", "delivering", "delivered", "failed", "in_doubt", "shadow"]),
  attempts: count,
  createdAt: epochMs,
  leaseUntil: epochMs.optional(),
  deliveredAt: epochMs.optional(),
  receiptId: text.optional(),
  bodySha256: text,
  templateVersion: text.optional().meta({
    description:
      "The version of the template that produced the message; for an approved draft, the one it was decided under. Absent for a person's own reply and for messages written by an older formletter.",
  }),
  catalogVersion: text.optional().meta({
    description:
      "The version of the catalog that decided the message, as its decision's audit event records it.",
  }),
});

export const approvalReply = z.object({
  item: queueItem,
  approvedNow: z.boolean(),
  keyUsedBefore: z.boolean(),
  outbound: outbound.optional(),
});

const deliveryOutcomes = z.object({
  delivered: count,
  bounced: z.object({ hard: count, soft: count, unclassified: count }),
  complained: count,
  failed: count,
  unmatched: count,
});

const rateRow = z.object({
  key: text,
  decided: count,
  sent: count,
  escalated: count,
  rate: share,
  low: share,
  high: share,
  deliveryOutcomes: deliveryOutcomes
    .meta({
      description:
        "On a version's row only: what providers reported of the messages sent under that version. Absent when none came in.",
    })
    .optional(),
});

export const reportReply = z.object({
  source: z.enum(["replay", "audit"]),
  definition: z.array(text),
  overall: rateRow,
  byReason: z.array(
    z.object({
      reason: text,
      count,
      share,
      low: share,
      high: share,
      examples: z.array(z.object({ line: count, detail: text })).optional(),
    }),
  ),
  byTemplate: z.array(rateRow),
  byTag: z.array(z.object({ tag: text, rows: z.array(rateRow) })),
  byDay: z.array(rateRow),
  byCatalogVersion: z
    .array(rateRow)
    .meta({ description: "By the catalog version that decided; (none) for decisions recorded without one." }),
  byTemplateVersion: z
    .array(rateRow)
    .meta({ description: "By template and its version, as template@version." }),
  period: z.object({
    first: text.optional(),
    last: text.optional(),
    days: count.optional(),
    undated: count,
  }),
  deliveryOutcomes: deliveryOutcomes.meta({
    description:
      "What providers reported of sent messages (delivery events); events naming no sent message are unmatched.",
  }),
  firstContact: z
    .object({ sends: count, firstContacts: count, rate: share, low: share, high: share })
    .meta({ description: "Sends that were the first to their destination, with the 95% Wilson interval." }),
  duplicates: count,
  deliveryFailures: count,
  malformed: z.object({ count, lines: z.array(z.object({ line: count, problem: text })) }),
  projection: z
    .object({
      ticketsPerDay: z.number(),
      basis: z.enum(["observed", "given"]),
      days: z.number().optional(),
      humanPerDay: z.object({ expected: z.number(), low: z.number(), high: z.number() }),
    })
    .optional(),
  truncated: z.array(text),
});
