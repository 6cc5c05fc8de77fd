import { describe, expect, it } from "vitest";
import { populate, useWorkspace } from "../workspace/rig.js";

let now = Date.parse("2026-03-02T09:00:00Z");

async function oldestSeconds(url: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split("\n").find((row) => row.startsWith("formletter_queue_oldest_seconds "));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
}

describe("formletter_queue_oldest_seconds", () => {
  const setup = useWorkspace({ clock: () => now });

  it("is the age of the oldest item waiting, open or claimed, and 0 when nothing waits", async () => {
    const { rig } = setup;
    const text = await (await fetch(`${rig.url}/metrics`)).text();
    expect(text).toContain("# TYPE formletter_queue_oldest_seconds gauge");
    expect(await oldestSeconds(rig.url)).toBe(0);

    const first = now;
    const approval = await populate(rig, "T-1");
    now += 600_000;
    await populate(rig, "T-2");
    now += 90_000;
    // The two items of T-1 came first: 11.5 minutes ago.
    expect(await oldestSeconds(rig.url)).toBe((now - first) / 1000);

    // Claimed items still wait for a person: the age stays theirs.
    await rig.outbox.queue.claim(approval, { by: "ana" });
    const escalation = (await rig.outbox.queue.list({ status: "open", limit: 1 })).items[0]?.id ?? "";
    await rig.outbox.queue.claim(escalation, { by: "ana" });
    now += 10_000;
    expect(await oldestSeconds(rig.url)).toBe((now - first) / 1000);

    // Once T-1's items are closed, the oldest is T-2's.
    await rig.outbox.queue.reject(approval, { by: "ana", note: "no" });
    await rig.outbox.queue.resolve(escalation, { by: "ana", resolution: "phoned" });
    now += 10_000;
    expect(await oldestSeconds(rig.url)).toBe((now - first - 600_000) / 1000);

    // A clock that stepped back shows 0, not a negative age.
    now = first - 1;
    expect(await oldestSeconds(rig.url)).toBe(0);
  });
});
