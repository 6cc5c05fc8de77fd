import type { HumanQueue } from "../outbox/index.js";

// A scrape every few seconds must not page through a long queue every time.
const freshMs = 5_000;
// Counting stops here; a queue this deep needs people, not a more exact number.
const maxCounted = 100_000;

/**
 * How many queue items wait, by status, read from the store (which another process, such as the
 * `formletter queue` command, may change too) and remembered for a few seconds.
 */
export function createQueueDepth(queue: HumanQueue, clock: () => number) {
  let last: { at: number; counts: Record<string, number> } | undefined;
  let reading: Promise<Record<string, number>> | undefined;

  const count = async (status: "open" | "claimed"): Promise<number> => {
    let total = 0;
    let cursor: string | undefined;
    do {
      const page = await queue.list({ status, limit: 500, ...(cursor === undefined ? {} : { cursor }) });
      total += page.items.length;
      cursor = page.nextCursor;
    } while (cursor !== undefined && total < maxCounted);
    return total;
  };

  return async (): Promise<Record<string, number>> => {
    const now = clock();
    if (last !== undefined && now - last.at < freshMs) return last.counts;
    reading ??= (async () => {
      try {
        const counts = { open: await count("open"), claimed: await count("claimed") };
        last = { at: clock(), counts };
        return counts;
      } finally {
        reading = undefined;
      }
    })();
    return reading;
  };
}
