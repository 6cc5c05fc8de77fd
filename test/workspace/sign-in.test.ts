import { describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/store/store.js";
import { Browser, populate, useWorkspace } from "./rig.js";

async function accessEvents(rig: { store: { queryAudit(filter: object): AsyncIterable<AuditEvent> } }) {
  const events: AuditEvent[] = [];
  for await (const event of rig.store.queryAudit({ type: "access" })) events.push(event);
  return events;
}

describe("signing in to the workspace", () => {
  const setup = useWorkspace();

  it("opens a session from an operator token in an HttpOnly SameSite=Strict cookie, audited", async () => {
    const { rig } = setup;
    const browser = new Browser(rig.url);
    expect((await browser.request("/queue/")).status).toBe(303);
    const signedIn = await browser.signIn(await rig.relay.mintOperatorToken({ operator: "ana@example.com" }));
    expect(signedIn.status).toBe(303);
    const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith("formletter-queue="));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/queue/);
    // Plain HTTP on loopback: not Secure, or the browser would drop it.
    expect(cookie).not.toMatch(/Secure/);
    const list = await browser.request("/queue/");
    expect(list.status).toBe(200);
    expect(list.text).toContain("signed in as <strong>ana@example.com</strong>");
    expect(list.headers.get("content-security-policy")).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    expect((await accessEvents(rig)).map((event) => [event.actor, event.data.action])).toEqual([
      ["ana@example.com", "sign_in"],
    ]);
  });

  it("marks the cookie Secure and __Host- when the request came over TLS", async () => {
    const { rig } = setup;
    const browser = new Browser(rig.url);
    const form = await browser.request("/queue/sign-in", { headers: { "x-forwarded-proto": "https" } });
    const answer = await browser.request("/queue/sign-in", {
      headers: { "x-forwarded-proto": "https" },
      form: {
        csrf: Browser.csrfOf(form.text),
        token: await rig.relay.mintOperatorToken({ operator: "ana" }),
      },
    });
    expect(form.headers.getSetCookie()[0]).toMatch(
      /^__Host-formletter-queue-sign-in=[^;]+; Max-Age=900; Path=\/; HttpOnly; SameSite=Strict; Secure$/,
    );
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith("__Host-formletter-queue="));
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/Path=\/;/);
    // Over TLS only the __Host- cookie counts: the plain one set over HTTP does not open a page.
    const plain = new Browser(rig.url);
    plain.cookies.set("formletter-queue", browser.cookies.get("__Host-formletter-queue") ?? "");
    expect((await plain.request("/queue/", { headers: { "x-forwarded-proto": "https" } })).status).toBe(303);
    // Nor does a sign-in pair planted without the prefix (a sibling host can set such a cookie).
    const planted = new Browser(rig.url);
    planted.cookies.set("formletter-queue-sign-in", "A".repeat(43));
    const tossed = await planted.request("/queue/sign-in", {
      headers: { "x-forwarded-proto": "https" },
      form: { csrf: "A".repeat(43), token: await rig.relay.mintOperatorToken({ operator: "ana" }) },
    });
    expect(tossed.status).toBe(403);
  });

  it("never opens it with an agent's task token, and audits the refusal", async () => {
    const { rig } = setup;
    const browser = new Browser(rig.url);
    const task = await rig.relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
    const answer = await browser.signIn(task);
    expect(answer.status).toBe(401);
    expect(answer.text).toContain("task token");
    expect(browser.cookies.has("formletter-queue")).toBe(false);
    expect((await browser.request("/queue/")).status).toBe(303);
    expect((await accessEvents(rig)).map((event) => event.data)).toEqual([
      expect.objectContaining({ action: "sign_in", refusal: "wrong_audience", audience: "formletter-agent" }),
    ]);
  });

  it.each([
    ["an empty token", ""],
    ["a made-up token", "a.b.c"],
    ["markup", "<script>alert(1)</script>"],
  ])("refuses %s without repeating it", async (_name, token) => {
    const { rig } = setup;
    const answer = await new Browser(rig.url).signIn(token);
    expect(answer.status).toBe(401);
    expect(answer.text).not.toContain("<script>alert");
  });

  it("refuses a sign-in form without its paired cookie (a cross-site post) or from another origin", async () => {
    const { rig } = setup;
    const token = await rig.relay.mintOperatorToken({ operator: "ana" });
    const browser = new Browser(rig.url);
    const form = await browser.request("/queue/sign-in");
    const csrf = Browser.csrfOf(form.text);
    const stranger = new Browser(rig.url);
    expect((await stranger.request("/queue/sign-in", { form: { csrf, token } })).status).toBe(403);
    const crossSite = await browser.request("/queue/sign-in", {
      form: { csrf, token },
      headers: { origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(browser.cookies.has("formletter-queue")).toBe(false);
  });

  it("ends the session at sign-out (with its CSRF token only), audited", async () => {
    const { rig } = setup;
    const browser = new Browser(rig.url);
    await browser.signIn(await rig.relay.mintOperatorToken({ operator: "ana" }));
    const stolen = browser.cookies.get("formletter-queue") ?? "";
    const list = await browser.request("/queue/");
    expect((await browser.request("/queue/sign-out", { form: { csrf: "forged" } })).status).toBe(403);
    expect((await browser.request("/queue/")).status).toBe(200);
    expect(
      (await browser.request("/queue/sign-out", { form: { csrf: Browser.csrfOf(list.text) } })).status,
    ).toBe(303);
    // The same cookie value, replayed after sign-out, opens nothing.
    const replay = new Browser(rig.url);
    replay.cookies.set("formletter-queue", stolen);
    expect((await replay.request("/queue/")).status).toBe(303);
    expect((await accessEvents(rig)).map((event) => event.data.action)).toEqual(["sign_in", "sign_out"]);
  });
});

describe("session lifetime", () => {
  let now = Date.parse("2026-03-02T09:00:00Z");
  const setup = useWorkspace({ idleTimeoutMs: 60_000, sessionLifetimeMs: 300_000, clock: () => now });

  it("ends a session unused for the idle timeout, and any session at its lifetime", async () => {
    const { rig } = setup;
    await populate(rig);
    const token = () => rig.relay.mintOperatorToken({ operator: "ana" });
    const idle = new Browser(rig.url);
    await idle.signIn(await token());
    now += 59_000;
    expect((await idle.request("/queue/")).status).toBe(200);
    now += 60_000;
    expect((await idle.request("/queue/")).status).toBe(303);
    const busy = new Browser(rig.url);
    await busy.signIn(await token());
    for (let step = 0; step < 5; step += 1) {
      now += 50_000;
      expect((await busy.request("/queue/")).status).toBe(200);
    }
    now += 50_000;
    expect((await busy.request("/queue/")).status).toBe(303);
  });

  it("audits a flood of refused sign-ins in full up to 20 a minute, then one in 100 with the count left out", async () => {
    const { rig } = setup;
    const form = await fetch(`${rig.url}/queue/sign-in`);
    const csrf = Browser.csrfOf(await form.text());
    const cookie = (form.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
    const post = () =>
      fetch(`${rig.url}/queue/sign-in`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf, token: "a.b.c" }).toString(),
      }).then((answer) => answer.status);
    const statuses: number[] = [];
    for (let index = 0; index < 121; index += 1) statuses.push(await post());
    expect(new Set(statuses)).toEqual(new Set([401]));
    const refusals = (await accessEvents(rig)).map((event) => event.data);
    expect(refusals).toHaveLength(21);
    expect(refusals.slice(0, 20).every((data) => data.unaudited === undefined)).toBe(true);
    expect(refusals[20]).toMatchObject({ refusal: "token_invalid", unaudited: 99 });
  });
});

describe("a revoked operator token", () => {
  const revoked = new Set<string>();
  const setup = useWorkspace({ revoked: (token) => revoked.has(token.operator ?? "") });

  it("opens no session, and ends the sessions it opened at their next request", async () => {
    const { rig } = setup;
    const browser = new Browser(rig.url);
    await browser.signIn(await rig.relay.mintOperatorToken({ operator: "ana" }));
    const list = await browser.request("/queue/");
    expect(list.status).toBe(200);
    revoked.add("ana");
    expect((await browser.request("/queue/")).status).toBe(303);
    expect(
      (await browser.request("/queue/items/1/claim", { form: { csrf: Browser.csrfOf(list.text) } })).status,
    ).toBe(401);
    const again = await new Browser(rig.url).signIn(await rig.relay.mintOperatorToken({ operator: "ana" }));
    expect(again.status).toBe(401);
    expect(again.text).toContain("revoked");
    revoked.clear();
  });
});
