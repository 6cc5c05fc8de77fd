import { describe, expect, it } from "vitest";
import { openHumanQueue } from "../../src/index.js";
import { Browser, populate, useWorkspace, type WorkspaceRig } from "./rig.js";

/** Opens the event stream with a session's cookie and returns a reader of its `queue` events. */
async function events(rig: WorkspaceRig, browser: Browser) {
  const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const controller = new AbortController();
  const answer = await fetch(`${rig.url}/queue/events`, { headers: { cookie }, signal: controller.signal });
  expect(answer.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = answer.body?.getReader();
  if (reader === undefined) throw new Error("no stream");
  const decoder = new TextDecoder();
  let buffered = "";
  return {
    /** The next event's data of type `type` (`queue`, or `ready` once the stream sends every change). */
    async next(type = "queue"): Promise<{ items: string[]; arrived: boolean }> {
      const head = `event: ${type}\ndata: `;
      for (;;) {
        const at = buffered.indexOf(head);
        const end = at < 0 ? -1 : buffered.indexOf("\n\n", at);
        if (end >= 0) {
          const data = buffered.slice(at + head.length, end);
          buffered = buffered.slice(end + 2);
          return JSON.parse(data);
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended");
        buffered += decoder.decode(value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}

describe("live updates", () => {
  const setup = useWorkspace({ pollMs: 20 });

  it("tells a signed-in page when items arrive and when another operator takes one, naming no content", async () => {
    const { rig } = setup;
    const id = await populate(rig);
    const browser = new Browser(rig.url);
    await browser.signIn(await rig.relay.mintOperatorToken({ operator: "ana" }));
    const stream = await events(rig, browser);
    try {
      // What was there before the stream was ready is not news: the page was rendered from it.
      await stream.next("ready");
      await rig.outbox.handle({ ticketId: "T-9", runId: "run-9", output: { escalate: "needs_human" } });
      expect(await stream.next()).toEqual({ items: [], arrived: true });
      // Another process on the same file, as `formletter queue` would act.
      await openHumanQueue(rig.store).claim(id, { by: "bo" });
      expect(await stream.next()).toEqual({ items: [id], arrived: false });
      // The item page, fetched again as the page's script does, shows the holder.
      expect((await browser.request(`/queue/items/${id}`)).text).toContain("claimed by bo");
    } finally {
      stream.close();
    }
  });

  it("gives no stream without a session", async () => {
    const { rig } = setup;
    const answer = await fetch(`${rig.url}/queue/events`);
    expect(answer.status).toBe(401);
    await answer.text();
  });
});
