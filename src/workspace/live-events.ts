import type { WorkspaceSource } from "./source.js";

/** One browser's stream, and how to tell whether its session still lives. */
interface Subscriber {
  readonly controller: ReadableStreamDefaultController<Uint8Array>;
  readonly alive: () => boolean;
}

const encoder = new TextEncoder();
// Events written this long before the last one read are read again: another process's transaction may
// commit an event stamped a little earlier than one already seen.
const overlapMs = 5_000;

/**
 * Server-sent events for the workspace: while at least one page listens, the audit log is read every
 * `pollMs` from where the last read ended, so changes made by any process on the same store (another
 * relay, `formletter queue` on the command line) reach every page. A stream first says `ready` (from
 * then on every change is sent); each `queue` event names the queue items that changed (`items`) and
 * whether new ones arrived (`arrived`); the page fetches what it shows again.
 * No record content goes into an event.
 */
export function createLiveEvents(
  source: WorkspaceSource,
  options: { pollMs: number; clock: () => number; onChange: () => void },
) {
  const subscribers = new Set<Subscriber>();
  let timer: NodeJS.Timeout | undefined;
  let since = options.clock();
  let seen = new Map<string, number>();
  let reading = false;

  const send = (subscriber: Subscriber, text: string) => {
    try {
      subscriber.controller.enqueue(encoder.encode(text));
    } catch {
      subscribers.delete(subscriber);
    }
  };
  const end = (subscriber: Subscriber) => {
    subscribers.delete(subscriber);
    try {
      subscriber.controller.close();
    } catch {
      // Already closed by the browser going away.
    }
  };

  // The first read after the log starts being watched only learns what is already there: a page was
  // rendered from it. Each stream then says `ready`, and every later change is sent.
  let primed = false;
  const waitingReady = new Set<Subscriber>();
  const poll = async () => {
    if (reading) return;
    reading = true;
    const silent = !primed;
    try {
      for (const subscriber of subscribers) if (!subscriber.alive()) end(subscriber);
      const items = new Set<string>();
      let arrived = false;
      let last = since;
      for await (const event of source.audit.query({ since: since - overlapMs })) {
        last = Math.max(last, event.at);
        if (seen.has(event.id)) continue;
        seen.set(event.id, event.at);
        if (event.type === "queue" && typeof event.data.item === "string") items.add(event.data.item);
        else if (event.reason !== undefined && event.type !== "duplicate") arrived = true;
      }
      since = last;
      // Only ids within the overlap can be read again.
      seen = new Map([...seen].filter(([, at]) => at >= since - overlapMs));
      primed = true;
      for (const subscriber of waitingReady) send(subscriber, "event: ready\ndata: {}\n\n");
      waitingReady.clear();
      if (silent) return;
      if (items.size > 0 || arrived) {
        options.onChange();
        const text = `event: queue\ndata: ${JSON.stringify({ items: [...items], arrived })}\n\n`;
        for (const subscriber of subscribers) send(subscriber, text);
      } else for (const subscriber of subscribers) send(subscriber, ": idle\n\n");
    } catch {
      // A store that cannot answer now is read again on the next tick.
    } finally {
      reading = false;
    }
  };

  const stopIfIdle = () => {
    if (subscribers.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
      primed = false;
      seen = new Map();
    }
  };

  return {
    /** A stream for one page, held until the page goes away or its session ends. */
    subscribe(alive: () => boolean): Response {
      let subscriber: Subscriber | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          subscriber = { controller, alive };
          subscribers.add(subscriber);
          controller.enqueue(encoder.encode("retry: 3000\n\n"));
          if (primed) controller.enqueue(encoder.encode("event: ready\ndata: {}\n\n"));
          else waitingReady.add(subscriber);
          if (timer === undefined) {
            since = options.clock();
            timer = setInterval(poll, options.pollMs);
            timer.unref();
            void poll();
          }
        },
        cancel() {
          if (subscriber !== undefined) {
            subscribers.delete(subscriber);
            waitingReady.delete(subscriber);
          }
          stopIfIdle();
        },
      });
      return new Response(body, {
        headers: {
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
        },
      });
    },
    /** Reads the log now (tests, and right after an action of this process). */
    poll,
    close(): void {
      for (const subscriber of [...subscribers]) end(subscriber);
      stopIfIdle();
    },
  };
}
