/**
 * Shared pieces of the LLM adapter tests: the recorded seller tickets, every provider, a way to collect
 * every schema a ticket's tools and structured-output schemas hold (both stages), and a catalog whose
 * tickets can be made as large as a test needs.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import type {
  LlmProvider,
  ProposalSchemaResult,
  ToolsCache,
  ToolsResult,
} from "../../../src/core/llm/index.js";
import {
  type Catalog,
  createCatalog,
  defineRecords,
  defineTemplate,
  type Template,
} from "../../../src/index.js";

export const providers: readonly LlmProvider[] = ["openai", "openai-responses", "anthropic", "ai-sdk"];

/** One line of examples/data/tickets.jsonl. */
export interface TicketLine {
  readonly ticketId: string;
  readonly records: { readonly ticketId: string } & Record<string, unknown>;
  readonly output: unknown;
  readonly tags: Readonly<Record<string, string>>;
}

export const sellerTickets: readonly TicketLine[] = readFileSync(
  new URL("../../../examples/data/tickets.jsonl", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as TicketLine);

/** The tools of every stage of a result: the result itself and, when staged, each template's stage two. */
export function allStages<P extends LlmProvider>(result: ToolsResult<P>): ToolsResult<P>[] {
  const stages = [result];
  for (const id of result.templates) {
    const next = result.forTemplate(id);
    if (next !== undefined) stages.push(next);
  }
  return stages;
}

/** The structured-output schemas of every stage. */
export function allSchemaStages<P extends LlmProvider>(
  result: ProposalSchemaResult<P>,
): ProposalSchemaResult<P>[] {
  const stages = [result];
  for (const id of result.templates) {
    const next = result.forTemplate(id);
    if (next !== undefined) stages.push(next);
  }
  return stages;
}

/** What the tests read from a catalog of any records (a `Catalog<S>` is not a `Catalog<CollectionSchemas>`). */
export type AnyCatalog = Pick<Catalog, "tools" | "proposalSchema" | "handles" | "prepare">;

/** Both cache modes: tools made for the ticket, and tools every ticket shares. */
export const cacheModes: readonly ToolsCache[] = ["ticket", "prefix"];

/**
 * Every schema (as JSON text) that `catalog` generates for a ticket, for every provider, cache mode
 * and stage.
 */
export function everySchemaText(catalog: AnyCatalog, ticket: unknown): string[] {
  const texts: string[] = [];
  for (const cache of cacheModes) {
    for (const provider of providers) {
      for (const stage of allStages(catalog.tools(ticket, { provider, cache })))
        texts.push(JSON.stringify(stage.tools));
      for (const stage of allSchemaStages(catalog.proposalSchema(ticket, { provider, cache }))) {
        texts.push(JSON.stringify(stage.format), JSON.stringify(stage.schema));
      }
    }
  }
  return texts;
}

/** The parameters of one tool of a Chat Completions tool list, by name. */
export function openaiParameters(result: ToolsResult<"openai">, name: string) {
  return result.tools.find((tool) => tool.function.name === name)?.function.parameters;
}

// ---- a catalog for sizes ---------------------------------------------------------------------------

const bulkSchemas = {
  parts: z.object({ id: z.string(), code: z.string(), kitId: z.string() }),
  kits: z.object({ id: z.string(), code: z.string() }),
  desks: z.object({ id: z.string(), email: z.email() }),
};
export const bulkRecords = defineRecords(bulkSchemas, {
  labels: { parts: (part) => `part ${part.code}`, kits: (kit) => `kit ${kit.code}` },
  maxPerCollection: 5_000,
});

/** `count` templates, each asking the one desk about a part (and, with `kit`, the part's kit). */
export function bulkTemplates(count: number, options: { kit?: boolean } = {}): Template[] {
  const { slot } = bulkRecords;
  return Array.from({ length: count }, (_, index) =>
    defineTemplate(bulkRecords, {
      id: `part_notice_${index + 1}`,
      description: `Part notice number ${index + 1}`,
      audience: "desk",
      effect: "informational",
      channel: "email",
      to: slot.ref("desks", { show: "email" }),
      subject: "Part {{part}}",
      body: options.kit ? "Part {{part}} of kit {{kit}}." : "Part {{part}}.",
      slots: {
        ...(options.kit ? { kit: slot.ref("kits", { show: "code" }) } : {}),
        part: slot.ref("parts", {
          show: "code",
          ...(options.kit ? { match: { kitId: "kit.id" } } : {}),
        }),
      },
      limits: { perTicket: 1, perDay: 100 },
    }),
  );
}

/** A ticket of `parts` parts in `kits` kits, and one desk. */
export function bulkTicket(parts: number, kits = 1) {
  return {
    ticketId: `BULK-${parts}`,
    parts: Array.from({ length: parts }, (_, index) => ({
      id: `PART-ID-${index}`,
      code: `PC-${index}`,
      kitId: `KIT-ID-${index % kits}`,
    })),
    kits: Array.from({ length: kits }, (_, index) => ({ id: `KIT-ID-${index}`, code: `KC-${index}` })),
    desks: [{ id: "DESK-ID-0", email: "desk@bulk.example" }],
  };
}

/** A catalog of `count` bulk templates. */
export function bulkCatalog(count: number, options: { kit?: boolean } = {}) {
  return createCatalog(bulkRecords, bulkTemplates(count, options));
}
