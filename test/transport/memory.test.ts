import { describe, expect, it } from "vitest";
import { isFormletterError } from "../../src/core/errors.js";
import { DeliveryError, isRetryable, memoryTransport } from "../../src/transport/index.js";
import { emailMessage, key, smsMessage } from "./messages.js";

async function rejection(promise: Promise<unknown>): Promise<DeliveryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return error as DeliveryError;
}

describe("memoryTransport", () => {
  it("keeps what it delivered, with the key, the attempt and deterministic ids", async () => {
    const transport = memoryTransport();
    const first = emailMessage();
    const second = smsMessage();
    expect(await transport.deliver(first, { key, attempt: 1 })).toEqual({ id: "mem-1" });
    expect(await transport.deliver(second, { key: "fl_other", attempt: 3 })).toEqual({ id: "mem-2" });
    expect(transport.sent).toEqual([
      { message: first, key, attempt: 1, id: "mem-1" },
      { message: second, key: "fl_other", attempt: 3, id: "mem-2" },
    ]);
    expect(transport.failed).toEqual([]);
    expect(transport.name).toBe("memory");
  });

  it("takes a name for the audit log", () => {
    expect(memoryTransport({ name: "sms-stub" }).name).toBe("sms-stub");
  });

  it("fails the first N deliveries with retryable errors, then delivers", async () => {
    const transport = memoryTransport({ failFirst: 2 });
    const message = emailMessage();
    for (const attempt of [1, 2]) {
      const error = await rejection(transport.deliver(message, { key, attempt }));
      expect(error.retryable).toBe(true);
      expect(isRetryable(error)).toBe(true);
      expect(error.code).toBe("delivery_failed");
      expect(isFormletterError(error)).toBe(true);
    }
    expect(await transport.deliver(message, { key, attempt: 3 })).toEqual({ id: "mem-1" });
    expect(transport.sent.map((s) => s.attempt)).toEqual([3]);
    expect(transport.failed.map((f) => [f.key, f.attempt, f.error.retryable])).toEqual([
      [key, 1, true],
      [key, 2, true],
    ]);
  });

  it("fails permanently when retryable is false", async () => {
    const transport = memoryTransport({ failFirst: 1, retryable: false });
    const error = await rejection(transport.deliver(emailMessage(), { key, attempt: 1 }));
    expect(error.retryable).toBe(false);
    expect(isRetryable(error)).toBe(false);
    expect(transport.sent).toEqual([]);
  });

  it("fails the deliveries a predicate picks, and only those", async () => {
    const transport = memoryTransport({
      failWhen: (message, context) => message.channel === "sms" && context.attempt < 2,
      retryable: false,
    });
    const sms = smsMessage();
    const error = await rejection(transport.deliver(sms, { key, attempt: 1 }));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("failWhen");
    expect(await transport.deliver(emailMessage(), { key, attempt: 1 })).toEqual({ id: "mem-1" });
    expect(await transport.deliver(sms, { key, attempt: 2 })).toEqual({ id: "mem-2" });
    expect(transport.failed).toHaveLength(1);
    expect(transport.failed[0]?.message).toBe(sms);
  });

  it("clear() forgets sent and failed messages and restarts ids", async () => {
    const transport = memoryTransport({ failFirst: 1 });
    await rejection(transport.deliver(emailMessage(), { key, attempt: 1 }));
    await transport.deliver(emailMessage(), { key, attempt: 2 });
    transport.clear();
    expect(transport.sent).toEqual([]);
    expect(transport.failed).toEqual([]);
    expect(await transport.deliver(emailMessage(), { key, attempt: 1 })).toEqual({ id: "mem-1" });
  });

  it("refuses to deliver once closed, retryably", async () => {
    const transport = memoryTransport();
    expect(transport.closed).toBe(false);
    await transport.close?.();
    expect(transport.closed).toBe(true);
    const error = await rejection(transport.deliver(emailMessage(), { key, attempt: 1 }));
    expect(error.retryable).toBe(true);
    expect(transport.sent).toEqual([]);
  });

  it.each([-1, 1.5, Number.NaN])("rejects failFirst %s at creation", (failFirst) => {
    expect(() => memoryTransport({ failFirst })).toThrow(
      expect.objectContaining({ code: "transport_invalid", message: expect.stringContaining("failFirst") }),
    );
  });
});
