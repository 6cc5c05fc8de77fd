import { isEscalationReason } from "../core/decision/reasons.js";
import type { QueueItem } from "../store/index.js";
import type { WorkspaceQueue, WorkspaceSource } from "./source.js";

/** What the list is filtered by, read from the query string (anything unreadable is left out). */
export interface ListFilter {
  readonly reason?: string;
  readonly template?: string;
  /** `name=value`: items whose decision carried that tag. */
  readonly tag?: string;
  /** Only items older than this many hours. */
  readonly olderThanHours?: number;
  readonly claim?: "mine" | "unclaimed";
  /** 1-based page number. */
  readonly page: number;
}

/** One waiting item with the tags of the decision that opened it. */
export interface ListedItem {
  readonly item: QueueItem;
  readonly tags: Readonly<Record<string, string>>;
}

/** The list page's data: the filtered page, the counts over the whole waiting queue, and its ages. */
export interface ListView {
  readonly items: readonly ListedItem[];
  /** Items passing the filter, and the page count at `pageSize`. */
  readonly matching: number;
  readonly pages: number;
  readonly waiting: number;
  /** True when the queue holds more waiting items than the list reads (counts cover the oldest). */
  readonly truncated: boolean;
  readonly oldestAt: number | undefined;
  readonly pastServiceLevel: number;
  readonly counts: {
    readonly reason: ReadonlyMap<string, number>;
    readonly template: ReadonlyMap<string, number>;
    readonly tag: ReadonlyMap<string, number>;
  };
}

export const pageSize = 50;
// The list reads at most this many waiting items; a queue deeper than this needs people, not a page.
const maxRead = 50_000;
const text = (value: string | undefined, max = 200) =>
  value === undefined || value === "" ? undefined : value.slice(0, max);

/** The filter a query string asks for; values the list does not know are dropped, never an error. */
export function listFilterOf(query: URLSearchParams): ListFilter {
  const reason = text(query.get("reason") ?? undefined);
  const hours = Number(query.get("older") ?? "");
  const page = Number(query.get("page") ?? "1");
  const claim = query.get("claim");
  return Object.assign(
    { page: Number.isSafeInteger(page) && page >= 1 ? page : 1 },
    reason !== undefined && isEscalationReason(reason) ? { reason } : {},
    text(query.get("template") ?? undefined) === undefined
      ? {}
      : { template: text(query.get("template") ?? "") },
    text(query.get("tag") ?? undefined, 400) === undefined ? {} : { tag: text(query.get("tag") ?? "", 400) },
    Number.isFinite(hours) && hours > 0 ? { olderThanHours: hours } : {},
    claim === "mine" || claim === "unclaimed" ? { claim } : {},
  ) as ListFilter;
}

/**
 * The tags of each item's opening decision, from the audit log, remembered by audit event id: an event
 * never changes, so what was read once stays true. Only items not seen before are looked up, in one
 * read of the log over their time span.
 */
export function createTagIndex(source: WorkspaceSource) {
  let known = new Map<string, Readonly<Record<string, string>>>();
  return async (
    items: readonly QueueItem[],
  ): Promise<ReadonlyMap<string, Readonly<Record<string, string>>>> => {
    const missing = new Set(items.filter((item) => !known.has(item.auditId)).map((item) => item.auditId));
    const next = new Map<string, Readonly<Record<string, string>>>();
    if (missing.size > 0) {
      let since = Number.POSITIVE_INFINITY;
      let until = Number.NEGATIVE_INFINITY;
      for (const item of items)
        if (missing.has(item.auditId)) {
          since = Math.min(since, item.createdAt);
          until = Math.max(until, item.createdAt + 1);
        }
      for await (const event of source.audit.query({ since, until })) {
        if (!missing.has(event.id)) continue;
        next.set(event.id, tagsOf(event.data.tags));
      }
    }
    // Kept: the tags of items still waiting, so the index never outgrows the queue.
    for (const item of items) next.set(item.auditId, next.get(item.auditId) ?? known.get(item.auditId) ?? {});
    known = next;
    return known;
  };
}

function tagsOf(value: unknown): Readonly<Record<string, string>> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/** Every waiting item (open or claimed), oldest first, up to the list's reading limit. */
export async function waitingItems(
  queue: Pick<WorkspaceQueue, "list">,
): Promise<{ items: QueueItem[]; truncated: boolean }> {
  const items: QueueItem[] = [];
  let cursor: string | undefined;
  do {
    const page = await queue.list({
      status: ["open", "claimed"],
      limit: 500,
      ...(cursor === undefined ? {} : { cursor }),
    });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined && items.length < maxRead);
  return { items, truncated: cursor !== undefined };
}

/** The waiting items as the list reads them. */
export interface Waiting {
  readonly items: readonly QueueItem[];
  readonly truncated: boolean;
}

// Queue events stamped up to this long before the last one read are read again: another process's
// transaction may commit an event stamped a little earlier than one already read.
const overlapMs = 5_000;

/**
 * The waiting items, kept between requests and brought up to date from what changed: items added since
 * (listed after the highest id read) and items a queue event names since the last read (read again, and
 * dropped once closed). Up to date means: not older than `maxAgeMs`, and at once after `invalidate()`
 * (an action of this process, a change the live events read). Every `fullEveryMs` the whole queue is
 * read again, so that an item whose id was given out before one already listed (two processes writing
 * at once) is never left out for long. Requests that arrive together share one read.
 */
export function createWaitingSnapshot(
  source: WorkspaceSource,
  options: { maxAgeMs: number; fullEveryMs: number; clock: () => number },
) {
  let state:
    | {
        items: Map<string, QueueItem>;
        truncated: boolean;
        cursor: string | undefined;
        since: number;
        fullAt: number;
      }
    | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<Waiting> | undefined;

  const full = async (now: number) => {
    const read = await waitingItems(source.queue);
    state = {
      items: new Map(read.items.map((item) => [item.id, item])),
      truncated: read.truncated,
      cursor: read.items.at(-1)?.id,
      since: now - overlapMs,
      fullAt: now,
    };
  };
  const update = async (current: NonNullable<typeof state>, now: number) => {
    const changed = new Set<string>();
    let since = current.since;
    for await (const event of source.audit.query({ since: current.since, type: "queue" })) {
      if (typeof event.data.item === "string") changed.add(event.data.item);
      since = Math.max(since, event.at - overlapMs);
    }
    let cursor = current.cursor;
    for (;;) {
      const page = await source.queue.list({
        status: ["open", "claimed"],
        limit: 500,
        ...(cursor === undefined ? {} : { cursor }),
      });
      for (const item of page.items) current.items.set(item.id, item);
      cursor = page.items.at(-1)?.id ?? cursor;
      if (page.nextCursor === undefined) break;
    }
    for (const id of changed) {
      const item = await source.queue.get(id);
      if (item !== undefined && (item.status === "open" || item.status === "claimed")) {
        const { facts: _, decidedUnder: __, ...plain } = item;
        if (current.items.has(id)) current.items.set(id, plain);
      } else current.items.delete(id);
    }
    current.cursor = cursor;
    current.since = Math.min(since, now - overlapMs);
  };
  const value = (): Waiting => {
    const items = [...(state?.items.values() ?? [])];
    return { items, truncated: state?.truncated ?? false };
  };

  return {
    read(): Promise<Waiting> {
      const now = options.clock();
      if (state !== undefined && now - checkedAt < options.maxAgeMs) return Promise.resolve(value());
      reading ??= (async () => {
        try {
          if (state === undefined || now - state.fullAt >= options.fullEveryMs) await full(now);
          else await update(state, now);
          checkedAt = now;
          return value();
        } catch (error) {
          // A read that failed half way leaves nothing to trust: the next one reads the whole queue.
          state = undefined;
          throw error;
        } finally {
          reading = undefined;
        }
      })();
      return reading;
    },
    invalidate(): void {
      checkedAt = Number.NEGATIVE_INFINITY;
    },
  };
}

const bump = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

/** The list's view: counts over every waiting item, then the filter, then the page. */
export function listView(
  all: { items: readonly QueueItem[]; truncated: boolean },
  tags: ReadonlyMap<string, Readonly<Record<string, string>>>,
  filter: ListFilter,
  context: { operator: string; now: number; serviceLevelMs: number; claimLapseMs: number },
): ListView {
  const reason = new Map<string, number>();
  const template = new Map<string, number>();
  const tag = new Map<string, number>();
  let pastServiceLevel = 0;
  const matching: ListedItem[] = [];
  for (const item of all.items) {
    const itemTags = tags.get(item.auditId) ?? {};
    bump(reason, item.reason);
    bump(template, item.template ?? "");
    for (const [name, value] of Object.entries(itemTags)) bump(tag, `${name}=${value}`);
    const age = context.now - item.createdAt;
    if (age > context.serviceLevelMs) pastServiceLevel += 1;
    if (filter.reason !== undefined && item.reason !== filter.reason) continue;
    if (filter.template !== undefined && (item.template ?? "") !== filter.template) continue;
    if (filter.tag !== undefined && !Object.entries(itemTags).some(([n, v]) => `${n}=${v}` === filter.tag))
      continue;
    if (filter.olderThanHours !== undefined && age < filter.olderThanHours * 3_600_000) continue;
    const held = item.status === "claimed" && context.now - (item.claimedAt ?? 0) < context.claimLapseMs;
    if (filter.claim === "mine" && !(held && item.claimedBy === context.operator)) continue;
    if (filter.claim === "unclaimed" && held) continue;
    matching.push({ item, tags: itemTags });
  }
  const pages = Math.max(1, Math.ceil(matching.length / pageSize));
  const page = Math.min(filter.page, pages);
  return {
    items: matching.slice((page - 1) * pageSize, page * pageSize),
    matching: matching.length,
    pages,
    waiting: all.items.length,
    truncated: all.truncated,
    oldestAt: all.items.reduce<number | undefined>(
      (oldest, item) => (oldest === undefined || item.createdAt < oldest ? item.createdAt : oldest),
      undefined,
    ),
    pastServiceLevel,
    counts: { reason, template, tag },
  };
}
