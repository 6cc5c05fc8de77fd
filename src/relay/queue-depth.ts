import type { HumanQueue } from "../outbox/index.js";

// A scrape every few seconds must not page through a long queue every time.
const freshMs = 5_000;
// Counting stops here; a queue this deep needs people, not a more exact number.
const maxCounted = 100_000;

/** The waiting items by status, and when the oldest of them (open or claimed) was queued. */
export interface QueueDepth {
  readonly counts: Readonly<Record<string, number>>;
  /** Epoch milliseconds; undefined when nothing waits. */
  readonly oldestAt: number | undefined;
}

/**
 * How many queue items wait, by status, and since when the oldest waits, read from the store (which
 * another process, such as the `formletter queue` command, may change too) and remembered for a few
 * seconds. The oldest is the first item of each status's first page: the store lists oldest first.
 */
export function createQueueDepth(queue: HumanQueue, clock: () => number) {
  let last: { at: number; depth: QueueDepth } | undefined;
  let reading: Promise<QueueDepth> | undefined;

  const count = async (status: "open" | "claimed"): Promise<{ total: number; oldestAt?: number }> => {
    let total = 0;
    let oldestAt: number | undefined;
    let cursor: string | undefined;
    do {
      const page = await queue.list({ status, limit: 500, ...(cursor === undefined ? {} : { cursor }) });
      oldestAt ??= page.items[0]?.createdAt;
      total += page.items.length;
      cursor = page.nextCursor;
    } while (cursor !== undefined && total < maxCounted);
    return oldestAt === undefined ? { total } : { total, oldestAt };
  };

  return async (): Promise<QueueDepth> => {
    const now = clock();
    if (last !== undefined && now - last.at < freshMs) return last.depth;
    reading ??= (async () => {
      try {
        const open = await count("open");
        const claimed = await count("claimed");
        const starts = [open.oldestAt, claimed.oldestAt].filter((at): at is number => at !== undefined);
        const depth: QueueDepth = {
          counts: { open: open.total, claimed: claimed.total },
          oldestAt: starts.length === 0 ? undefined : Math.min(...starts),
        };
        last = { at: clock(), depth };
        return depth;
      } finally {
        reading = undefined;
      }
    })();
    return reading;
  };
}
