import { describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/store/store.js";
import { Browser, populate, signedIn, useWorkspace, type WorkspaceRig } from "./rig.js";

let now = Date.parse("2026-03-02T09:00:00Z");

/** Posts an action as the item page's form does, with the session's CSRF token read from the page. */
async function act(browser: Browser, id: string, action: string, fields: Record<string, string> = {}) {
  const page = await browser.request(`/queue/items/${id}`);
  return browser.request(`/queue/items/${id}/${action}`, {
    form: { csrf: Browser.csrfOf(page.text), ...fields },
  });
}

const outcomeOf = (answer: { status: number; headers: Headers }) =>
  answer.status === 303
    ? new URL(answer.headers.get("location") ?? "", "http://x").searchParams.get("done")
    : `status ${answer.status}`;

async function queueEvents(rig: WorkspaceRig): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  for await (const event of rig.store.queryAudit({ type: "queue" })) events.push(event);
  return events;
}

describe("actions on an item", () => {
  const setup = useWorkspace({ clock: () => now, claimLapseMs: 600_000 });

  it("claims, approves once (sending the stored draft exactly), and says a second approval sends nothing", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const draft = (await rig.outbox.queue.get(id))?.draft;
    const ana = await signedIn(rig);
    expect(outcomeOf(await act(ana, id, "claim"))).toBe("claimed");
    const claimed = await ana.request(`/queue/items/${id}?done=claimed`);
    expect(claimed.text).toContain("You hold this item now.");
    expect(claimed.text).toMatch(/claimed by you, 10m left/);
    expect(outcomeOf(await act(ana, id, "approve"))).toBe("sent");
    expect(rig.transport.sent).toHaveLength(1);
    expect(rig.transport.sent[0]?.message).toEqual(draft);
    const again = await ana.request(`/queue/items/${id}/approve`, {
      form: { csrf: Browser.csrfOf((await ana.request("/queue/")).text) },
    });
    expect(outcomeOf(again)).toBe("already_approved");
    expect((await ana.request(`/queue/items/${id}?done=already_approved`)).text).toContain(
      "This item was already approved: nothing new is sent.",
    );
    expect(rig.transport.sent).toHaveLength(1);
    expect((await queueEvents(rig)).map((event) => [event.actor, event.data.action])).toEqual([
      ["ana", "claim"],
      ["ana", "approve"],
    ]);
  });

  it("rejects only with a reason and resolves only with a resolution, each audited under the operator", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const ana = await signedIn(rig);
    expect(outcomeOf(await act(ana, id, "reject"))).toBe("note_required");
    expect(outcomeOf(await act(ana, id, "reject", { note: "x".repeat(4001) }))).toBe("note_too_long");
    expect(outcomeOf(await act(ana, id, "reject", { note: "<b>refund paid twice</b>" }))).toBe("rejected");
    expect(outcomeOf(await act(ana, "1", "resolve", { resolution: "   " }))).toBe("resolution_invalid");
    expect(outcomeOf(await act(ana, "1", "resolve", { resolution: "replied by phone", note: "ok" }))).toBe(
      "resolved",
    );
    expect(rig.transport.sent).toHaveLength(0);
    expect(
      (await queueEvents(rig)).map((event) => [event.actor, event.data.action, event.data.note]),
    ).toEqual([
      ["ana", "reject", "<b>refund paid twice</b>"],
      ["ana", "resolve", "ok"],
    ]);
    const page = (await ana.request(`/queue/items/${id}`)).text;
    expect(page).toContain("note: &lt;b&gt;refund paid twice&lt;/b&gt;");
  });

  it.each([
    ["no CSRF token", {}, {}],
    ["a forged CSRF token", { csrf: "A".repeat(43) }, {}],
    ["another session's token", "other", {}],
    ["a cross-site origin", "own", { origin: "https://evil.example" }],
    ["a cross-site fetch", "own", { "sec-fetch-site": "cross-site" }],
    ["a sandboxed page's null origin", "own", { origin: "null" }],
  ])("refuses an action with %s, and changes nothing", async (_name, token, headers) => {
    const { rig } = setup;
    const id = await populate(rig);
    const ana = await signedIn(rig);
    const bo = await signedIn(rig, "bo");
    const csrf =
      token === "own"
        ? { csrf: Browser.csrfOf((await ana.request("/queue/")).text) }
        : token === "other"
          ? { csrf: Browser.csrfOf((await bo.request("/queue/")).text) }
          : token;
    const answer = await ana.request(`/queue/items/${id}/approve`, {
      form: csrf as Record<string, string>,
      headers,
    });
    expect(answer.status).toBe(403);
    expect(rig.transport.sent).toHaveLength(0);
    expect(await queueEvents(rig)).toEqual([]);
  });

  it("refuses actions from an ended session, a bearer token, another encoding, an unknown item, a 1 MB body", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const ana = await signedIn(rig);
    const csrf = Browser.csrfOf((await ana.request("/queue/")).text);
    // A bearer operator token is for the JSON API: the workspace takes its session cookie only.
    const bearer = new Browser(rig.url);
    const token = await rig.relay.mintOperatorToken({ operator: "ana" });
    expect(
      (
        await bearer.request(`/queue/items/${id}/claim`, {
          form: { csrf },
          headers: { authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(401);
    const json = await ana.request(`/queue/items/${id}/claim`, {
      body: JSON.stringify({ csrf }),
      headers: { "content-type": "application/json" },
    });
    expect(json.status).toBe(415);
    expect((await ana.request("/queue/items/424242/claim", { form: { csrf } })).status).toBe(404);
    expect((await ana.request(`/queue/items/${id}/delete`, { form: { csrf } })).status).toBe(404);
    const huge = await ana.request(`/queue/items/${id}/reject`, {
      form: { csrf, note: "x".repeat(1_048_576) },
    });
    expect(huge.status).toBe(413);
    expect(huge.text).toContain("a note holds at most 4,000 characters");
    now += 31 * 60_000;
    const late = await ana.request(`/queue/items/${id}/claim`, { form: { csrf } });
    expect(late.status).toBe(401);
    expect(late.text).toContain("Your session has ended");
    expect(await queueEvents(rig)).toEqual([]);
  });

  it("lets anyone take a lapsed claim, naming whom it was taken from", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const ana = await signedIn(rig);
    const bo = await signedIn(rig, "bo");
    expect(outcomeOf(await act(ana, id, "claim"))).toBe("claimed");
    expect(outcomeOf(await act(bo, id, "claim"))).toBe("held");
    expect((await bo.request(`/queue/items/${id}`)).text).toContain("claimed by ana");
    now += 600_000;
    expect(outcomeOf(await act(bo, id, "claim"))).toBe("claimed");
    expect((await queueEvents(rig)).map((event) => [event.actor, event.data.takenFrom])).toEqual([
      ["ana", undefined],
      ["bo", "ana"],
    ]);
  });
});

describe("two operators racing on one item (SQLite, real concurrent requests)", () => {
  const setup = useWorkspace();

  it.each([
    ["approve", "approve"],
    ["approve", "reject"],
    ["claim", "claim"],
    ["reject", "resolve"],
  ])("%s against %s: one wins, the other is told why, nothing is sent twice", async (first, second) => {
    const { rig } = setup;
    const id = await populate(rig);
    const ana = await signedIn(rig);
    const bo = await signedIn(rig, "bo");
    const forms = await Promise.all([ana.request(`/queue/items/${id}`), bo.request(`/queue/items/${id}`)]);
    const fields = (action: string) =>
      action === "reject" ? { note: "no" } : action === "resolve" ? { resolution: "by phone" } : {};
    const answers = await Promise.all([
      ana.request(`/queue/items/${id}/${first}`, {
        form: { csrf: Browser.csrfOf(forms[0].text), ...fields(first) },
      }),
      bo.request(`/queue/items/${id}/${second}`, {
        form: { csrf: Browser.csrfOf(forms[1].text), ...fields(second) },
      }),
    ]);
    const outcomes = answers.map(outcomeOf).sort();
    const refusals = ["already_approved", "closed", "held"];
    expect(outcomes.filter((outcome) => refusals.includes(outcome ?? ""))).toHaveLength(1);
    expect(outcomes.filter((outcome) => !refusals.includes(outcome ?? ""))).toHaveLength(1);
    const item = await rig.outbox.queue.get(id);
    const approved = item?.status === "approved";
    expect(rig.transport.sent).toHaveLength(approved ? 1 : 0);
    // One transition in the audit log: the winner's, under the winner's name.
    const events = await queueEvents(rig);
    expect(events).toHaveLength(1);
    expect(events[0]?.actor).toBe(item?.closedBy ?? item?.claimedBy);
  });
});
