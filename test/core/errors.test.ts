import { describe, expect, it } from "vitest";
import { isStoreUnavailable } from "../../src/core/errors.js";
import {
  DefinitionError,
  DeliveryError,
  FormletterError,
  isFormletterError,
  QueueError,
  StoreUnavailableError,
} from "../../src/index.js";
import { RelayError, RelayRequestError } from "../../src/relay/index.js";
import { isRetryable } from "../../src/transport/index.js";

describe("isFormletterError", () => {
  it("is true for errors formletter throws", () => {
    expect(isFormletterError(new FormletterError("template_invalid", "x"))).toBe(true);
    expect(isFormletterError(new DefinitionError("catalog_invalid", "x", { template: "t" }))).toBe(true);
  });

  it("is true for an error of another installed copy, recognised by the shared Symbol.for marker", () => {
    const fromOtherCopy = Object.assign(new Error('template "x": bad'), {
      code: "template_invalid",
      [Symbol.for("formletter.error")]: true,
    });
    expect(fromOtherCopy).not.toBeInstanceOf(FormletterError);
    expect(isFormletterError(fromOtherCopy)).toBe(true);
    expect(isFormletterError({ [Symbol.for("formletter.error")]: true })).toBe(true);
  });

  it.each([
    ["a plain Error", new Error("template_invalid")],
    ["an object with a code only", { code: "template_invalid", name: "FormletterError" }],
    ["a marker that is not true", { [Symbol.for("formletter.error")]: "yes" }],
    ["a local symbol of the same description", { [Symbol("formletter.error")]: true }],
    ["null", null],
    ["undefined", undefined],
    ["a string", "FormletterError"],
    ["a number", 42],
  ])("is false for %s", (_name, value) => {
    expect(isFormletterError(value)).toBe(false);
  });
});

describe("FormletterError", () => {
  it("carries a stable code, a name and the cause", () => {
    const cause = new Error("inner");
    const error = new FormletterError("records_invalid", "ticket records are invalid", { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe("records_invalid");
    expect(error.name).toBe("FormletterError");
    expect(error.cause).toBe(cause);
  });

  it("DefinitionError names the template and slot at fault", () => {
    const error = new DefinitionError("template_invalid", "m", { template: "t", slot: "s" });
    expect(error).toBeInstanceOf(FormletterError);
    expect(error.name).toBe("DefinitionError");
    expect([error.template, error.slot]).toEqual(["t", "s"]);
  });
});

describe("two installed copies", () => {
  // A second copy of the modules, as when two versions of formletter are installed side by side.
  const copy = <T>(path: string): Promise<T> => import(/* @vite-ignore */ `${path}?second-copy`);
  const load = async () => ({
    errors: await copy<typeof import("../../src/core/errors.js")>("../../src/core/errors.js"),
    transport: await copy<typeof import("../../src/transport/transport.js")>(
      "../../src/transport/transport.js",
    ),
    queue: await copy<typeof import("../../src/outbox/queue-error.js")>("../../src/outbox/queue-error.js"),
    relay: await copy<typeof import("../../src/relay/errors.js")>("../../src/relay/errors.js"),
  });

  it("the copies are distinct classes", async () => {
    const other = await load();
    expect(other.errors.FormletterError).not.toBe(FormletterError);
    expect(other.transport.DeliveryError).not.toBe(DeliveryError);
  });

  it("instanceof holds for each class across the copies, both ways", async () => {
    const other = await load();
    const pairs: [unknown, unknown, new (...args: never[]) => unknown][] = [
      [
        new other.errors.FormletterError("records_invalid", "x"),
        new FormletterError("records_invalid", "x"),
        FormletterError,
      ],
      [
        new other.errors.DefinitionError("template_invalid", "x"),
        new DefinitionError("template_invalid", "x"),
        DefinitionError,
      ],
      [
        new other.errors.StoreUnavailableError("x", { retryable: true }),
        new StoreUnavailableError("x", { retryable: true }),
        StoreUnavailableError,
      ],
      [
        new other.transport.DeliveryError("x", { retryable: false }),
        new DeliveryError("x", { retryable: false }),
        DeliveryError,
      ],
      [
        new other.queue.QueueError("queue_item_not_found", "x"),
        new QueueError("queue_item_not_found", "x"),
        QueueError,
      ],
      [
        new other.relay.RelayRequestError(429, "rate_limited", "x"),
        new RelayRequestError(429, "rate_limited", "x"),
        RelayRequestError,
      ],
    ];
    for (const [theirs, ours, type] of pairs) {
      expect(theirs instanceof type).toBe(true);
      expect(theirs instanceof FormletterError).toBe(true);
      expect(theirs instanceof other.errors.FormletterError).toBe(true);
      expect(ours instanceof other.errors.FormletterError).toBe(true);
    }
  });

  it("a class is not mistaken for a sibling or a subclass", async () => {
    const other = await load();
    const delivery = new other.transport.DeliveryError("x", { retryable: true });
    expect(delivery instanceof QueueError).toBe(false);
    expect(delivery instanceof StoreUnavailableError).toBe(false);
    expect(new FormletterError("records_invalid", "x") instanceof DefinitionError).toBe(false);
    expect(new RelayError("relay_invalid", "x") instanceof RelayRequestError).toBe(false);
    expect(new RelayRequestError(0, "network", "x") instanceof RelayError).toBe(true);
  });

  it("look-alikes are not instances: a plain Error, a marker without brands, a forged brand list that is not an array", () => {
    expect(new Error("x") instanceof FormletterError).toBe(false);
    expect({ [Symbol.for("formletter.error")]: true } instanceof FormletterError).toBe(false);
    const forged = {
      [Symbol.for("formletter.error")]: true,
      [Symbol.for("formletter.error.kinds")]: "DeliveryError",
    };
    expect(forged instanceof DeliveryError).toBe(false);
  });

  it("a subclass of your own, without a brand, is checked by prototype as usual", () => {
    class Bounce extends DeliveryError {}
    const bounce = new Bounce("x", { retryable: false });
    expect(bounce instanceof Bounce).toBe(true);
    expect(bounce instanceof DeliveryError).toBe(true);
    expect(new DeliveryError("x", { retryable: false }) instanceof Bounce).toBe(false);
  });

  it("retry decisions read code and retryable, whichever copy threw", async () => {
    const other = await load();
    expect(isRetryable(new other.transport.DeliveryError("x", { retryable: false }))).toBe(false);
    expect(isRetryable(new other.transport.DeliveryError("x", { retryable: true }))).toBe(true);
    expect(other.transport.isRetryable(new DeliveryError("x", { retryable: false }))).toBe(false);
    expect(isRetryable(new Error("socket hang up"))).toBe(true);
    expect(isStoreUnavailable(new other.errors.StoreUnavailableError("x", { retryable: false }))).toBe(true);
  });
});
