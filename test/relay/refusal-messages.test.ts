/**
 * What a refusal says: the code's sentence, the place named by the relay's own schema keys (or, where
 * the caller chose the key, by its position and kind), and what was expected. Built from typed facts
 * in one place (src/relay/refusal.ts), so these hold for every route.
 */
import { describe, expect, it } from "vitest";
import { proposal } from "../fixtures/property.js";
import { call, type RelayRig, useRelay } from "./harness.js";

const marker = "Mk-refusal-q4Zt";

async function propose(rig: RelayRig, json: unknown) {
  const token = await rig.relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
  return call(rig.url, "/v1/proposals", { token, json });
}

describe("refusal messages", () => {
  const setup = useRelay();
  const output = () => proposal("T-1");

  it.each([
    [
      "a tag name too long",
      () => ({ output: output(), tags: { [marker.repeat(3)]: "x" } }),
      "the body does not have the expected shape: a key of field tags must be no more than 40 characters",
    ],
    [
      "a tag value that is a number",
      () => ({ output: output(), tags: { [marker]: 1 } }),
      "the body does not have the expected shape: a value of field tags must be a string",
    ],
    [
      "a tag value too long",
      () => ({ output: output(), tags: { [marker]: marker.repeat(20) } }),
      "a value of field tags must be no more than 200 characters",
    ],
    [
      "a tag with an empty name",
      () => ({ output: output(), tags: { "": marker } }),
      "a key of field tags must be no fewer than 1 character",
    ],
    [
      "too many tags",
      () => ({
        output: output(),
        tags: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`${marker}${i}`, "x"])),
      }),
      "field tags may hold no more than 20 entries",
    ],
    [
      "a field the body does not declare",
      () => ({ output: output(), [marker]: marker }),
      "a field the body does not declare is not accepted; the fields are output, tags, ticketId, runId",
    ],
    ["no output", () => ({ tags: { category: marker } }), "field output is required"],
    ["a body that is a list", () => [marker], "the body must be an object"],
    ["tags that are a list", () => ({ output: output(), tags: [marker] }), "field tags must be an object"],
  ])("%s: names the place and the rule, never what was sent", async (_name, body, expected) => {
    const answer = await propose(setup.rig, body());
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("body_invalid");
    expect(answer.body.error.message).toContain(expected);
    expect(answer.text).not.toContain(marker);
  });

  it.each([
    ["/v1/tools?provider=Mk", "task", "query parameter provider must be one of openai"],
    ["/v1/queue?status=Mk", "operator", "query parameter status must be one of all, open"],
    ["/v1/queue?limit=Mk", "operator", "query parameter limit is not in its documented form: Items a page"],
    ["/v1/report?volume=Mk", "operator", "query parameter volume is not in its documented form"],
  ] as const)("GET %s names the parameter and its rule", async (path, kind, expected) => {
    const { rig } = setup;
    const token =
      kind === "task"
        ? await rig.relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" })
        : await rig.relay.mintOperatorToken({ operator: "ana@example.com" });
    const answer = await call(rig.url, path.replace("Mk", marker), { token });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({
      code: "request_invalid",
      message: expect.stringContaining(expected),
    });
    expect(answer.text).not.toContain(marker);
  });

  it("a resolution that is blank is a request to fix, stated by its rule", async () => {
    const { rig } = setup;
    const token = await rig.relay.mintOperatorToken({ operator: "ana@example.com" });
    const answer = await call(rig.url, "/v1/queue/1/resolve", { token, json: { resolution: "   " } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("field resolution must be no fewer than 1 character");
  });
});

describe("GET /v1/report?since&until", () => {
  const setup = useRelay();
  const report = async (rig: RelayRig, query: string) =>
    call(rig.url, `/v1/report?${query}`, {
      token: await rig.relay.mintOperatorToken({ operator: "ana@example.com" }),
    });

  it.each([
    ["20 digits", "since=12345678901234567890"],
    ["17 digits", "until=12345678901234567"],
    ["epoch milliseconds past the year 9999", "since=253402300800000"],
    ["a day that is not in the calendar", "since=2026-02-30"],
    ["29 February of a common year", "until=2025-02-29"],
    ["month 13", "since=2026-13-01"],
    ["hour 24", "since=2026-03-01T24:00"],
    ["an offset of 24 hours", "since=2026-03-01T12:00+24:00"],
    ["a year of five digits", "since=10000-01-01"],
    ["weeks reaching before the year 0000", "since=999999999w"],
    ["a date with text after it", "since=2026-03-01x"],
    ["a word", "until=yesterday"],
  ])("refuses %s with 400 and the forms a time takes", async (_name, query) => {
    const answer = await report(setup.rig, query);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("request_invalid");
    expect(answer.body.error.message).toMatch(
      /query parameter (since|until) must be a time ago \(30m, 24h, 7d, 2w\), an ISO 8601 date or time, or epoch milliseconds, within the years 0000 to 9999$/,
    );
    expect(answer.text).not.toContain(query.split("=")[1]);
  });

  it.each([
    ["epoch milliseconds", "since=1772323200000"],
    ["the first instant of the year 0000", "since=0000-01-01"],
    ["the last instant of the year 9999", "until=9999-12-31T23:59:59.999Z"],
    ["29 February of a leap year", "since=2024-02-29"],
    ["a time with an offset", "since=2026-03-01T12:00:00.5%2B02:00"],
    ["a time ago", "since=2w"],
  ])("takes %s", async (_name, query) => {
    expect((await report(setup.rig, query)).status).toBe(200);
  });
});
