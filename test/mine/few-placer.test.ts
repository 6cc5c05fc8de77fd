import { createHook } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRecords } from "../../src/index.js";
import { type ClusterState, Clusters } from "../../src/mine/clusters.js";
import { type FewHelp, type FewPlacer, MergeHelper } from "../../src/mine/few-placer.js";
import { mineHistory } from "../../src/mine/index.js";
import { fewForHelper, mergeClusters } from "../../src/mine/merge-clusters.js";
import { placeFew } from "../../src/mine/merge-roots.js";
import { readAloneFor } from "../../src/mine/read-in-order.js";

const syllables = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "vo", "pe", "du", "ga", "ho"];
/** A made-up word, the same for the same number. */
const word = (n: number) =>
  `${syllables[n % 12]}${syllables[Math.floor(n / 12) % 12]}${syllables[Math.floor(n / 144) % 12]}${syllables[Math.floor(n / 1728) % 12]}n`;
const templates = [
  (n: number) =>
    `the quarterly maintenance report for building ${n} is ready and the technicians visit the site next tuesday morning.`,
  (n: number) =>
    `your parcel ${n} left the central depot this afternoon and the courier expects to deliver it before noon tomorrow.`,
  (n: number) =>
    `the invoice ${n} for the hall hire is still open and we kindly ask you to settle it within the next fourteen days.`,
];

/**
 * A history's clusters as read: three templates of many members, past them a few thousand one-off
 * messages (made-up words) and, among them, stray messages of the templates with a sentence of their own.
 */
function readClusters(): ClusterState[] {
  const clusters = new Clusters();
  for (let n = 0; n < 90; n++) clusters.add((templates[n % 3] as (n: number) => string)(n + 10), undefined);
  for (let k = 0; k < fewForHelper + 400; k++) {
    const own = Array.from({ length: 6 }, (_, w) => word(k * 6 + w)).join(" ");
    const stray =
      k % 7 === 0
        ? `${(templates[k % 3] as (n: number) => string)(k)} ${Array.from({ length: 12 }, (_, w) => word(15000 + k * 12 + w)).join(" ")}. `
        : "";
    clusters.add(`${stray}${own} wrote about item ${k} twice.`, undefined);
  }
  return clusters.finish();
}

/** Each cluster left as its id, size and the ids merged into it. */
const shapeOf = (merged: readonly ClusterState[]) =>
  merged.map((cluster) => `${cluster.id}:${cluster.size}:${cluster.merged.join(",")}`);

/** What the helper was sent, and the places it and this thread found for each cluster it was sent. */
interface Sent {
  readonly help: FewHelp;
  readonly helper: number[];
  readonly here: number[];
}

/**
 * The real helper, asked to place every cluster it is sent before this thread places any: its places
 * are all read, and each is compared with the place this thread finds for the same cluster.
 */
function waitingFor(helper: MergeHelper, sent: Sent[]): FewPlacer {
  return {
    place(few, settled, placing) {
      const help = helper.place(few, settled, placing);
      if (help === undefined) return undefined;
      const pause = new Int32Array(new SharedArrayBuffer(4));
      const until = Date.now() + 60_000;
      // Told that this thread placed none yet, it is sent chunk after chunk down to the last it may be.
      while (help.placedFrom() > help.keptTo && Date.now() < until) {
        help.calledTo(0);
        Atomics.wait(pause, 0, 0, 5);
      }
      const placed: Sent = { help, helper: [], here: [] };
      for (let at = help.keptTo; at < few.length; at++) {
        placed.helper.push(help.placeOf(at));
        placed.here.push(placeFew(few[at] as ClusterState, settled.roots, settled.index, placing, new Map()));
      }
      sent.push(placed);
      return help;
    },
  };
}

/** A helper thread, which a test needs to have started. */
function started(chunk?: number): MergeHelper {
  const helper = MergeHelper.start(chunk);
  if (helper === undefined) throw new Error("the merge's helper thread did not start");
  return helper;
}

describe("the merge's helper thread", () => {
  it("places the messages-or-two it is sent as this thread does: the merge is the same with it", async () => {
    const alone = mergeClusters(readClusters());
    // Sent in chunks of 256, six or so, each when it has placed half of the one before.
    const helper = started(256);
    const sent: Sent[] = [];
    try {
      const helped = mergeClusters(readClusters(), {}, waitingFor(helper, sent));
      expect(shapeOf(helped)).toEqual(shapeOf(alone));
    } finally {
      await helper.close();
    }
    // It was sent the last messages-or-two of the first pass, and placed each as this thread does.
    expect(sent).toHaveLength(1);
    const [{ help, helper: there, here }] = sent as [Sent];
    expect(help.keptTo).toBeGreaterThan(0);
    expect(help.placedFrom()).toBe(help.keptTo);
    expect(there).toEqual(here);
    // Stray messages among them joined their templates: it did not only find no place.
    expect(there.filter((place) => place !== -1).length).toBeGreaterThan(100);
  }, 120_000);

  it("leaves every place to this thread when it is gone, with the same result", async () => {
    const alone = mergeClusters(readClusters());
    const helper = started();
    await helper.close();
    expect(shapeOf(mergeClusters(readClusters(), {}, helper))).toEqual(shapeOf(alone));
  });

  it("helps mine a long history to the same report, and is ended with it", async () => {
    const people = defineRecords({ people: z.object({ id: z.string(), email: z.email() }) });
    // Past the one-off clusters that start a helper, and so past the lines that start a reading worker.
    expect(fewForHelper).toBeGreaterThan(readAloneFor);
    const lines = Array.from({ length: fewForHelper * 2 }, (_, n) => {
      const own = Array.from({ length: 6 }, (_, w) => word(n * 6 + w)).join(" ");
      const text =
        n % 4 === 0
          ? (templates[n % 3] as (n: number) => string)(n)
          : `${n % 5 === 1 ? `${(templates[n % 3] as (n: number) => string)(n)} ` : ""}${own} wrote about item ${n} twice.`;
      return JSON.stringify({
        ticketId: `T-${n}`,
        records: { people: [{ id: `p${n}`, email: `p${n}@mail.example` }] },
        message: { to: `p${n}@mail.example`, text },
      });
    });
    const threads = new Set<number>();
    let started = 0;
    const hook = createHook({
      init: (id, type) => type === "WORKER" && threads.add(id) && started++,
      destroy: (id) => threads.delete(id),
    }).enable();
    try {
      const helped = await mineHistory(people, lines);
      // Every worker is ended when the report is made; its resource is let go a turn later.
      for (let turn = 0; turn < 20 && threads.size > 0; turn++)
        await new Promise((done) => setTimeout(done, 50));
      expect(threads.size).toBe(0);
      // The reading worker, and the merge's helper.
      expect(started).toBe(2);
      const alone = await mineHistory(people, lines, { workers: 0 });
      expect(helped.candidates).toEqual(alone.candidates);
      expect(alone.candidates.filter((candidate) => candidate.templatable)).toHaveLength(3);
    } finally {
      hook.disable();
    }
  }, 120_000);
});
