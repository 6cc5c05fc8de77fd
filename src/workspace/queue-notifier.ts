import { randomBytes } from "node:crypto";
import { FormletterError } from "../core/errors.js";
import type { QueueItem } from "../store/index.js";
import { signWebhookBody, webhookSecretKey } from "../transport/webhook-signature.js";
import { waitingItems } from "./list-query.js";
import type { WorkspaceQueue } from "./source.js";

/**
 * Where and how often the queue tells people about it: a Standard Webhooks POST (so Slack, Teams or a
 * pager can take it through their incoming-webhook adapters).
 *
 * @example
 * import { createRelay } from "formletter/relay";
 * createRelay({ outbox, secret, operatorSecret, workspace: { notify: { url: "https://hooks.example.com/queue", secret: process.env.QUEUE_HOOK_SECRET ?? "" } } });
 */
export interface QueueNotifyOptions {
  /** The receiver: an `https:` URL (or `http:` on a loopback host). */
  readonly url: string;
  /** A Standard Webhooks secret, `whsec_` then 24 to 64 bytes in base64. */
  readonly secret: string;
  /** At most one POST this often: what happened in between goes into one batch. @default 60000 */
  readonly everyMs?: number;
  /** Waits before each retry of a batch; their count bounds the retries. @default [1000, 5000] */
  readonly retryDelaysMs?: readonly number[];
  /** One POST's wait for an answer. @default 10000 */
  readonly timeoutMs?: number;
}

/** What one check of the queue did. */
export type NotifyResult =
  | {
      readonly sent: false;
      readonly why: "nothing_new" | "rate_limited" | "failed";
      readonly attempts: number;
    }
  | { readonly sent: true; readonly attempts: number; readonly body: string };

// The ids a batch names, at most; the counts are always whole.
const maxIds = 100;

function checkedUrl(url: string): URL {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const loopback = parsed !== undefined && /^(?:127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/.test(parsed.hostname);
  if (
    parsed === undefined ||
    parsed.username !== "" ||
    parsed.password !== "" ||
    !(parsed.protocol === "https:" || (parsed.protocol === "http:" && loopback))
  )
    throw new FormletterError(
      "transport_invalid",
      "workspace.notify.url: give an https: URL without credentials in it (http: only on a loopback host), e.g. https://hooks.example.com/queue",
    );
  return parsed;
}

/**
 * Tells a receiver when items arrive in the human queue or pass the service level: at most one signed
 * POST per `everyMs`, naming item ids and counts only (never a record value, note or draft), retried a
 * bounded number of times. An item is told about once for arriving and once for passing the service
 * level; a batch that could not be delivered is told again in the next one. The first check only
 * learns what already waits.
 */
export function createQueueNotifier(
  queue: Pick<WorkspaceQueue, "list">,
  options: QueueNotifyOptions & {
    readonly serviceLevelMs: number;
    readonly clock: () => number;
    readonly fetch?: typeof fetch;
    readonly sleep?: (ms: number) => Promise<void>;
  },
) {
  const url = checkedUrl(options.url);
  webhookSecretKey(options.secret, "workspace.notify.secret");
  const everyMs = options.everyMs ?? 60_000;
  if (!Number.isFinite(everyMs) || everyMs < 1000)
    throw new FormletterError(
      "transport_invalid",
      "workspace.notify.everyMs: give at least 1000 (one POST a second)",
    );
  const delays = options.retryDelaysMs ?? [1000, 5000];
  const post = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const told = new Set<string>();
  const toldLate = new Set<string>();
  let primed = false;
  let lastPostAt = Number.NEGATIVE_INFINITY;
  let checking: Promise<NotifyResult> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const waiting = async (): Promise<QueueItem[]> => (await waitingItems(queue)).items;

  const deliver = async (body: string): Promise<number | undefined> => {
    const id = `flq_${randomBytes(12).toString("hex")}`;
    for (let attempt = 0; attempt <= delays.length; attempt++) {
      if (attempt > 0) await sleep(delays[attempt - 1] ?? 0);
      try {
        const answer = await post(url, {
          method: "POST",
          // The same id on every retry: a receiver deduplicates on it.
          headers: { "content-type": "application/json", ...signWebhookBody(body, options.secret, { id }) },
          body,
          redirect: "manual",
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
        await answer.body?.cancel();
        if (answer.status >= 200 && answer.status < 300) return attempt + 1;
        // Only an answer that may change on a retry is retried.
        if (answer.status !== 429 && answer.status < 500) return undefined;
      } catch {
        // A network failure or a timeout: retried.
      }
    }
    return undefined;
  };

  const check = async (): Promise<NotifyResult> => {
    const now = options.clock();
    const items = await waiting();
    const ids = new Set(items.map((item) => item.id));
    // Closed items are forgotten: the sets hold at most what waits.
    for (const id of told) if (!ids.has(id)) told.delete(id);
    for (const id of toldLate) if (!ids.has(id)) toldLate.delete(id);
    const arrived = items.filter((item) => !told.has(item.id));
    const late = items.filter(
      (item) => now - item.createdAt > options.serviceLevelMs && !toldLate.has(item.id),
    );
    if (!primed) {
      primed = true;
      for (const item of arrived) told.add(item.id);
      for (const item of late) toldLate.add(item.id);
      return { sent: false, why: "nothing_new", attempts: 0 };
    }
    if (arrived.length === 0 && late.length === 0) return { sent: false, why: "nothing_new", attempts: 0 };
    // However often check() is called, at most one POST per everyMs: what is new waits for the next.
    if (now - lastPostAt < everyMs) return { sent: false, why: "rate_limited", attempts: 0 };
    lastPostAt = now;
    const oldest = items.reduce((at, item) => Math.min(at, item.createdAt), now);
    const body = JSON.stringify({
      type: "queue.changed",
      timestamp: new Date(now).toISOString(),
      data: {
        arrived: { count: arrived.length, ids: arrived.slice(0, maxIds).map((item) => item.id) },
        pastServiceLevel: { count: late.length, ids: late.slice(0, maxIds).map((item) => item.id) },
        waiting: items.length,
        oldestSeconds: Math.max(0, Math.round((now - oldest) / 1000)),
        serviceLevelSeconds: Math.round(options.serviceLevelMs / 1000),
      },
    });
    const attempts = await deliver(body);
    if (attempts === undefined) return { sent: false, why: "failed", attempts: delays.length + 1 };
    for (const item of arrived) told.add(item.id);
    for (const item of late) toldLate.add(item.id);
    return { sent: true, attempts, body };
  };

  return {
    /** Checks the queue now and sends one batch if anything is new; one check at a time. */
    check(): Promise<NotifyResult> {
      checking ??= check().finally(() => {
        checking = undefined;
      });
      return checking;
    },
    /** Checks every `everyMs` until `stop()`; a failing store or receiver never stops the timer. */
    start(): void {
      if (timer !== undefined) return;
      void this.check().catch(() => undefined);
      timer = setInterval(() => void this.check().catch(() => undefined), everyMs);
      timer.unref();
    },
    stop(): void {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}
