import type { Message } from "../core/decision/decision.js";
import { FormletterError } from "../core/errors.js";
import { type DeliveryContext, DeliveryError, type DeliveryReceipt, type Transport } from "./transport.js";

/**
 * One message a {@link memoryTransport} accepted.
 *
 * @example
 * import { memoryTransport } from "formletter";
 * const [first] = memoryTransport().sent; // { message, key, attempt, id: "mem-1" } once delivered
 */
export interface SentMessage {
  readonly message: Message;
  /** The idempotency key it was delivered with. */
  readonly key: string;
  /** The attempt that succeeded: 1 for the first try. */
  readonly attempt: number;
  /** The receipt id returned for it: `mem-1`, `mem-2`, … in delivery order. */
  readonly id: string;
}

/**
 * One delivery a {@link memoryTransport} refused on purpose.
 *
 * @example
 * import { memoryTransport } from "formletter";
 * const transport = memoryTransport({ failFirst: 1 });
 * transport.failed[0]?.error.retryable; // true, after the first delivery
 */
export interface FailedDelivery {
  readonly message: Message;
  readonly key: string;
  readonly attempt: number;
  /** The error thrown for it. */
  readonly error: DeliveryError;
}

/**
 * Options of {@link memoryTransport}.
 *
 * @example
 * import { memoryTransport } from "formletter";
 * memoryTransport({ failWhen: (message) => message.to.endsWith("@bounce.test"), retryable: false });
 */
export interface MemoryTransportOptions {
  /** The transport's name in the audit log. @default "memory" */
  readonly name?: string;
  /** Fail this many `deliver()` calls first, counted across all messages. @default 0 */
  readonly failFirst?: number;
  /** Fail every delivery this returns true for (checked after `failFirst`). @default undefined */
  readonly failWhen?: (message: Message, context: DeliveryContext) => boolean;
  /** Whether the failures above are retryable (`true`) or permanent (`false`). @default true */
  readonly retryable?: boolean;
}

/**
 * A transport that keeps messages in memory instead of delivering them.
 *
 * @example
 * import { memoryTransport } from "formletter";
 * const transport = memoryTransport();
 * transport.clear(); // between tests
 */
export interface MemoryTransport extends Transport {
  /** What was delivered, in order. */
  readonly sent: readonly SentMessage[];
  /** What was refused by `failFirst` or `failWhen`, in order. */
  readonly failed: readonly FailedDelivery[];
  /** True once `close()` was called; later deliveries fail (retryable), as they would on a closed connection. */
  readonly closed: boolean;
  /** Forgets what was sent and failed, and restarts ids at `mem-1`; the `failFirst` budget is not restored. */
  clear(): void;
}

/**
 * A transport that keeps what it delivered in `.sent`, for tests and examples. It can fail the first
 * deliveries or the ones a predicate picks, so retry handling can be tested without a network.
 *
 * @example
 * import { memoryTransport } from "formletter";
 * const transport = memoryTransport({ failFirst: 1 }); // the first try fails, retryable
 * // … after the outbox retried:
 * transport.sent[0]?.attempt; // 2
 */
export function memoryTransport(options: MemoryTransportOptions = {}): MemoryTransport {
  const failFirst = options.failFirst ?? 0;
  if (!Number.isInteger(failFirst) || failFirst < 0) {
    throw new FormletterError(
      "transport_invalid",
      `memoryTransport: failFirst must be a whole number ≥ 0, got ${String(failFirst)}`,
    );
  }
  const retryable = options.retryable ?? true;
  const sent: SentMessage[] = [];
  const failed: FailedDelivery[] = [];
  let calls = 0;
  let closed = false;

  const refuse = (message: Message, context: DeliveryContext, reason: string): never => {
    const error = new DeliveryError(`memory transport: ${reason}`, { retryable });
    failed.push({ message, key: context.key, attempt: context.attempt, error });
    throw error;
  };

  return {
    name: options.name ?? "memory",
    sent,
    failed,
    get closed() {
      return closed;
    },
    async deliver(message: Message, context: DeliveryContext): Promise<DeliveryReceipt> {
      if (closed) throw new DeliveryError("memory transport: closed", { retryable: true });
      calls += 1;
      if (calls <= failFirst) refuse(message, context, `failing delivery ${calls} of the first ${failFirst}`);
      if (options.failWhen?.(message, context) === true) refuse(message, context, "failWhen matched");
      const id = `mem-${sent.length + 1}`;
      sent.push({ message, key: context.key, attempt: context.attempt, id });
      return { id };
    },
    clear() {
      sent.length = 0;
      failed.length = 0;
    },
    async close() {
      closed = true;
    },
  };
}
