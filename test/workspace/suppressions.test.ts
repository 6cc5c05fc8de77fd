import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startQueueUi } from "../../src/cli/queue-ui.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import type { AuditEvent, Suppression } from "../../src/store/store.js";
import { Browser, canary, signedIn, useWorkspace, type WorkspaceRig } from "./rig.js";

const bounced: Suppression = {
  destination: "5f0c".padEnd(64, "a"),
  channel: "email",
  cause: "hard_bounce",
  provider: "ses",
  at: Date.parse("2026-03-01T08:30:00Z"),
  auditId: "1",
};
const complained: Suppression = {
  ...bounced,
  destination: "9e21".padEnd(64, "b"),
  cause: "complaint",
  provider: canary,
};

async function suppress(rig: WorkspaceRig, ...entries: Suppression[]) {
  await rig.store.transaction(async (tx) => {
    for (const entry of entries) await tx.addSuppression(entry);
  });
}

async function liftEvents(rig: WorkspaceRig): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  for await (const event of rig.store.queryAudit({ type: "suppression" })) events.push(event);
  return events;
}

const doneOf = (answer: { status: number; headers: Headers }) =>
  answer.status === 303
    ? new URL(answer.headers.get("location") ?? "", "http://x").searchParams.get("done")
    : `status ${answer.status}`;

/** Posts the lift form as the page does, with the page's own CSRF token unless `fields` overrides it. */
async function lift(browser: Browser, fields: Record<string, string>) {
  const page = await browser.request("/queue/suppressions");
  return browser.request("/queue/suppressions/lift", {
    form: { csrf: Browser.csrfOf(page.text), ...fields },
  });
}

describe("the suppressions page", () => {
  const setup = useWorkspace();

  it("lists each suppressed destination by its hash prefix, channel, cause, provider and date, markup as text", async () => {
    const { rig } = setup;
    const ana = await signedIn(rig);
    expect((await ana.request("/queue/suppressions")).text).toContain("No destination is suppressed.");
    await suppress(rig, bounced, complained);
    const page = await ana.request("/queue/suppressions");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<code>5f0caaaaaaaa</code>");
    expect(page.text).toMatch(/hard_bounce<\/td><td>ses<\/td><td>2026-03-01 08:30:00/);
    expect(page.text).toContain("complaint");
    expect(page.text).not.toContain(canary);
    expect(page.text).toContain("&lt;script&gt;");
    // The list page links it.
    expect((await ana.request("/queue/")).text).toContain('href="/queue/suppressions"');
    // Signed out, the page is the sign-in page.
    expect((await new Browser(rig.url).request("/queue/suppressions")).status).toBe(303);
  });

  it("lifts one, audited with the signed-in operator as its by, and the destination no longer listed", async () => {
    const { rig } = setup;
    await suppress(rig, bounced, complained);
    const ana = await signedIn(rig, "ana");
    expect(doneOf(await lift(ana, { destination: bounced.destination, note: "new mailbox" }))).toBe("lifted");
    expect(await rig.store.getSuppression(bounced.destination)).toBeUndefined();
    expect(await rig.store.getSuppression(complained.destination)).toBeDefined();
    const events = await liftEvents(rig);
    expect(events.map((event) => [event.actor, event.data.action, event.data.note])).toEqual([
      ["ana", "lifted", "new mailbox"],
    ]);
    const after = await ana.request("/queue/suppressions?done=lifted");
    expect(after.text).toContain("Lifted: the next decision to that destination sends again.");
    expect(after.text).not.toContain("5f0caaaaaaaa");
    // Lifting it again, or a well-formed hash never suppressed: nothing written.
    expect(doneOf(await lift(ana, { destination: bounced.destination }))).toBe("not_suppressed");
    expect(doneOf(await lift(ana, { destination: "c".repeat(64) }))).toBe("not_suppressed");
    expect(await liftEvents(rig)).toHaveLength(1);
  });

  it.each([
    ["a shown prefix", "5f0caaaaaaaa"],
    ["upper case", bounced.destination.toUpperCase()],
    ["markup", canary],
    ["an empty value", ""],
    ["a long value", "a".repeat(100_000 / 2)],
  ])("refuses %s as the destination, writing nothing", async (_, destination) => {
    const { rig } = setup;
    await suppress(rig, bounced);
    const ana = await signedIn(rig);
    const answer = await lift(ana, { destination });
    expect(doneOf(answer)).toBe("destination_invalid");
    expect(await rig.store.getSuppression(bounced.destination)).toBeDefined();
    expect(await liftEvents(rig)).toEqual([]);
  });

  it("refuses a note over 500 characters", async () => {
    const { rig } = setup;
    await suppress(rig, bounced);
    const ana = await signedIn(rig);
    expect(doneOf(await lift(ana, { destination: bounced.destination, note: "n".repeat(501) }))).toBe(
      "note_too_long",
    );
    expect(await rig.store.getSuppression(bounced.destination)).toBeDefined();
  });

  it("refuses a lift without this session's CSRF token, from another site, or without a session", async () => {
    const { rig } = setup;
    await suppress(rig, bounced);
    const ana = await signedIn(rig, "ana");
    const bo = await signedIn(rig, "bo");
    const bosToken = Browser.csrfOf((await bo.request("/queue/suppressions")).text);
    const form = { destination: bounced.destination };
    expect((await ana.request("/queue/suppressions/lift", { form })).status).toBe(403);
    expect(
      (await ana.request("/queue/suppressions/lift", { form: { ...form, csrf: "forged" } })).status,
    ).toBe(403);
    expect(
      (await ana.request("/queue/suppressions/lift", { form: { ...form, csrf: bosToken } })).status,
    ).toBe(403);
    const page = await ana.request("/queue/suppressions");
    const crossSite = await ana.request("/queue/suppressions/lift", {
      form: { ...form, csrf: Browser.csrfOf(page.text) },
      headers: { origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    const json = await ana.request("/queue/suppressions/lift", {
      body: JSON.stringify({ ...form, csrf: Browser.csrfOf(page.text) }),
      headers: { "content-type": "application/json" },
    });
    expect(json.status).toBe(415);
    const fetchedCrossSite = await ana.request("/queue/suppressions/lift", {
      form: { ...form, csrf: Browser.csrfOf(page.text) },
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(fetchedCrossSite.status).toBe(403);
    // The destination twice (a parser that took the last value would lift something else): refused whole.
    const twice = await ana.request("/queue/suppressions/lift", {
      body: `csrf=${encodeURIComponent(Browser.csrfOf(page.text))}&destination=${complained.destination}&destination=${bounced.destination}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(twice.status).toBe(415);
    // A GET never lifts.
    expect((await ana.request(`/queue/suppressions/lift?destination=${bounced.destination}`)).status).toBe(
      404,
    );
    expect((await new Browser(rig.url).request("/queue/suppressions/lift", { form })).status).toBe(401);
    expect(await rig.store.getSuppression(bounced.destination)).toBeDefined();
    expect(await liftEvents(rig)).toEqual([]);
  });
});

describe("a workspace without an outbox", () => {
  it("has no suppressions page or action (formletter queue --ui)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "formletter-suppressions-"));
    const file = join(dir, "outbox.db");
    await sqliteStore(file).close();
    const ui = await startQueueUi({ db: file, by: "ana", port: 0 });
    try {
      const browser = new Browser(new URL(ui.url).origin);
      await browser.signIn(ui.token);
      const list = await browser.request("/queue/");
      expect(list.text).not.toContain("/queue/suppressions");
      expect((await browser.request("/queue/suppressions")).status).toBe(404);
      const lifted = await browser.request("/queue/suppressions/lift", {
        form: { csrf: Browser.csrfOf(list.text), destination: bounced.destination },
      });
      expect(lifted.status).toBe(404);
    } finally {
      await ui.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
