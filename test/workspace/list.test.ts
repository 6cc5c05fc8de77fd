import { describe, expect, it } from "vitest";
import { openHumanQueue } from "../../src/index.js";
import { canary, refundProposal, signedIn, useWorkspace, type WorkspaceRig } from "./rig.js";

let now = Date.parse("2026-03-02T09:00:00Z");
const hour = 3_600_000;

/** Items of two reasons and three tags, made an hour apart, the oldest first. */
async function fill(rig: WorkspaceRig) {
  const escalate = async (ticketId: string, tags: Record<string, string>) =>
    rig.outbox.handle({ ticketId, runId: "run-1", output: { escalate: "needs_human" }, tags });
  await escalate("T-old", { category: "damage" });
  now += hour;
  await escalate("T-mid", { category: `bad ${canary}` });
  now += hour;
  await rig.outbox.handle({
    ticketId: "T-new",
    runId: "run-1",
    output: refundProposal("T-new"),
    tags: { category: "refund" },
  });
  now += 4 * hour + 60_000;
}

const rowsOf = (html: string) =>
  [...html.matchAll(/<tr data-href="[^"]*items\/(\d+)"/g)].map((match) => match[1]);

describe("the list", () => {
  const setup = useWorkspace({ clock: () => now, serviceLevelMs: 4 * hour + 30 * 60_000 });

  it("shows waiting items oldest first, with counts, the oldest age and the items past the service level", async () => {
    const { rig } = setup;
    await fill(rig);
    const page = (await (await signedIn(rig)).request("/queue/")).text;
    expect(rowsOf(page)).toEqual(["1", "2", "3"]);
    expect(page).toMatch(/<div class="label">waiting<\/div><div class="value">3<\/div>/);
    // The two older items are past 4.5 h; the oldest (6 h) stands out.
    expect(page).toMatch(/past 4.5 h<\/div><div class="value late">2</);
    expect(page).toMatch(/oldest<\/div><div class="value late">6h</);
    expect(page.match(/<tr data-href="[^"]*" class="late">/g)).toHaveLength(2);
    expect(page).toContain('>model_escalated</a> <span class="n">2</span>');
    expect(page).toContain('>category=refund</a> <span class="n">1</span>');
  });

  it("writes tags and ids as text, never as markup", async () => {
    const { rig } = setup;
    await fill(rig);
    const page = (await (await signedIn(rig)).request("/queue/")).text;
    expect(page).not.toContain("<script>window.__pwned");
    expect(page).not.toContain('<img src=x onerror="');
    expect(page).toContain("&lt;script&gt;window.__pwned=1&lt;/script&gt;");
  });

  it.each([
    ["reason=approval_required", ["3"]],
    ["template=refund_notice", ["3"]],
    ["tag=category%3Ddamage", ["1"]],
    ["older=5", ["1", "2"]],
    ["claim=unclaimed", ["1", "3"]],
    ["claim=mine", ["2"]],
    // Values the list does not know are left out, never an error.
    ["reason=%3Cscript%3E&older=-3&claim=everyone&page=zzz", ["1", "2", "3"]],
  ])("filters by %s", async (query, expected) => {
    const { rig } = setup;
    await fill(rig);
    await rig.outbox.queue.claim("2", { by: "ana" });
    const browser = await signedIn(rig);
    const answer = await browser.request(`/queue/?${query}`);
    expect(answer.status).toBe(200);
    expect(rowsOf(answer.text)).toEqual(expected);
  });

  it("counts a lapsed claim as unclaimed, and shows who held it", async () => {
    const { rig } = setup;
    await fill(rig);
    await rig.outbox.queue.claim("2", { by: "bo" });
    now += 31 * 60_000;
    const page = (await (await signedIn(rig)).request("/queue/?claim=unclaimed")).text;
    expect(rowsOf(page)).toEqual(["1", "2", "3"]);
    expect(page).toContain("bo (lapsed)");
  });

  it("shows what another process changed once the list's cache is past, and new items too", async () => {
    const { rig } = setup;
    await fill(rig);
    const browser = await signedIn(rig);
    expect(rowsOf((await browser.request("/queue/")).text)).toEqual(["1", "2", "3"]);
    // Straight through the store, as the command line in another process would.
    const elsewhere = openHumanQueue(rig.store);
    await elsewhere.reject("1", { by: "bo", note: "duplicate" });
    await elsewhere.claim("3", { by: "bo" });
    await rig.outbox.handle({ ticketId: "T-later", runId: "run-1", output: { escalate: "needs_human" } });
    now += 2_001;
    const page = (await browser.request("/queue/")).text;
    expect(rowsOf(page)).toEqual(["2", "3", "4"]);
    expect(page).toMatch(/items\/3".*<td>bo<\/td><\/tr>/);
  });

  it("pages fifty items at a time", async () => {
    const { rig } = setup;
    for (let index = 0; index < 55; index += 1)
      await rig.outbox.handle({
        ticketId: `T-${index}`,
        runId: "run-1",
        output: { escalate: "needs_human" },
      });
    const browser = await signedIn(rig);
    const first = await browser.request("/queue/");
    expect(rowsOf(first.text)).toHaveLength(50);
    expect(first.text).toContain("page 1 of 2");
    const second = await browser.request("/queue/?page=2");
    expect(rowsOf(second.text)).toEqual(["51", "52", "53", "54", "55"]);
  });
});
