import { describe, expect, it } from "vitest";
import { channelLimit } from "../../../src/core/definition/channel-limits.js";

describe("channelLimit: the one check of the channels' limits, at definition and at rendering", () => {
  it.each<[string, Parameters<typeof channelLimit>, unknown]>([
    [
      "an e-mail subject over 200 characters",
      ["email", { subject: "s".repeat(201), body: "b" }, 3],
      { part: "subject", max: 200, count: 201 },
    ],
    ["an e-mail subject of 200 characters", ["email", { subject: "s".repeat(200), body: "b" }, 3], undefined],
    [
      "an SMS over its segments",
      ["sms", { subject: undefined, body: "x".repeat(161) }, 1],
      { part: "body", max: 1, count: 2, unit: "segments", encoding: "GSM-7" },
    ],
    [
      "a UCS-2 SMS counted in UCS-2",
      ["sms", { subject: undefined, body: "é€ж".repeat(30) }, 1],
      { count: 2, encoding: "UCS-2" },
    ],
    [
      "a WhatsApp body over 1024",
      ["whatsapp", { subject: undefined, body: "x".repeat(1025) }, 3],
      { part: "body", max: 1024 },
    ],
    [
      "a WhatsApp header over 60",
      ["whatsapp", { subject: "h".repeat(61), body: "x" }, 3],
      { part: "header", max: 60 },
    ],
    ["chat, which has none", ["chat", { subject: undefined, body: "x".repeat(100_000) }, 3], undefined],
  ])("%s", (_name, args, expected) => {
    const { broken } = channelLimit(...args);
    if (expected === undefined) expect(broken).toBeUndefined();
    else expect(broken).toMatchObject(expected as object);
  });

  it("gives the SMS size the message records, also when it fits", () => {
    expect(channelLimit("sms", { subject: undefined, body: "hello" }, 1).sms).toMatchObject({
      segments: 1,
      encoding: "GSM-7",
    });
  });
});
