import { MessageChannel } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { type ClusterState, Clusters } from "../../src/mine/clusters.js";
import { mergeClusters } from "../../src/mine/merge-clusters.js";
import { type GuessSetup, type PassRequest, tellVerdicts } from "../../src/mine/merge-guesses.js";
import {
  type HelperThread,
  mergeHelperSettings,
  startHelperThread,
} from "../../src/mine/merge-helper-thread.js";

const templates = [
  "your claim {claim.number} for the water damage at {policy.address} has been received and is being reviewed by our team today",
  "the payout of {payout.amount} for claim {claim.number} was sent to your account ending in {account.last} this morning",
  "we need a photo of the damaged items for claim {claim.number} before the assessor can visit {policy.address} next week",
  "your policy {policy.number} renews on {policy.renewal} and the premium of {policy.premium} will be taken from your account",
];
const optional = " please keep this letter for your records.";
const tails = [
  "",
  " thanks again for your patience.",
  " call us if anything is unclear.",
  " best wishes from the claims desk.",
];
const typos: Record<string, string> = {
  received: "recieved",
  account: "acount",
  premium: "premuim",
  photo: "foto",
};

/** Skeletons of a few templates, split by optional sentences, free tails and typos into many clusters. */
function skeletons(): string[] {
  const out: string[] = [];
  for (let n = 0; n < 240; n++) {
    let text = templates[n % templates.length] as string;
    if (n % 3 === 0) text += optional;
    text += tails[(n >> 2) % tails.length];
    if (n % 7 === 0) for (const [word, typo] of Object.entries(typos)) text = text.replace(word, typo);
    if (n % 11 === 0) text += ` reference ${["alpha", "bravo", "charlie"][n % 3]} noted by the desk.`;
    out.push(text);
  }
  return out;
}

/** The clusters of the skeletons as read: a fresh copy each time (the merge changes what it merges). */
function readClusters(): ClusterState[] {
  const clusters = new Clusters();
  for (const skeleton of skeletons()) clusters.add(skeleton, undefined);
  return clusters.finish();
}

/** What a merge's result says: each cluster's size, ids merged and examples, in order. */
function summary(merged: readonly ClusterState[]) {
  return merged.map((cluster) => ({
    size: cluster.size,
    merged: [...cluster.merged],
    examples: [...cluster.examples],
  }));
}

/** A helping thread run on this thread: each pass is told in full as it is posted, before the merge. */
function toldInFull(setup: Omit<GuessSetup, "port">, tell = tellVerdicts): HelperThread {
  const { port1, port2 } = new MessageChannel();
  return {
    verdicts: port1,
    post: (request: PassRequest) => tell(structuredClone(request), { ...setup, port: port2 }),
    end: () => {
      port1.close();
      port2.close();
    },
  };
}

const defaults = { ...mergeHelperSettings };
const asked = { helperThread: true };
afterEach(() => Object.assign(mergeHelperSettings, defaults));

describe("a merge with a second thread telling verdicts", () => {
  const alone = summary(mergeClusters(readClusters()));

  it("merges some of the clusters read (the input is worth merging)", () => {
    expect(alone.length).toBeLessThan(readClusters().length);
    expect(alone.length).toBeGreaterThan(1);
  });

  it("gives the same clusters when every verdict is told ahead", () => {
    mergeHelperSettings.fewestClusters = 0;
    let passes = 0;
    mergeHelperSettings.start = (setup) =>
      toldInFull(setup, (request, guess) => {
        passes++;
        tellVerdicts(request, guess);
      });
    expect(summary(mergeClusters(readClusters(), asked))).toEqual(alone);
    expect(passes).toBe(2);
  });

  it("takes the verdicts told: a thread telling no pair joins leaves the clusters apart", () => {
    mergeHelperSettings.fewestClusters = 0;
    mergeHelperSettings.start = (setup) =>
      toldInFull(setup, (request, { port }) => {
        const told: number[] = [];
        for (let at = 1; at < request.identities.length; at++) {
          told.push(at, at);
          for (let candidate = 0; candidate < at; candidate++) told.push(candidate, 0);
        }
        port.postMessage({ pass: request.pass, verdicts: Float64Array.from(told) });
      });
    const merged = mergeClusters(readClusters(), asked);
    // Only the last step, which merges lines differing by a value's word, may still merge.
    expect(merged.length).toBeGreaterThan(alone.length);
  });

  it("gives the same clusters when the thread posts what is not a verdict", () => {
    mergeHelperSettings.fewestClusters = 0;
    mergeHelperSettings.start = (setup) =>
      toldInFull(setup, (request, { port }) => {
        port.postMessage("not a chunk");
        port.postMessage(null);
        port.postMessage({ pass: request.pass, verdicts: [1, 1, 0, 1.5] });
        port.postMessage({ pass: request.pass + 7, verdicts: new Float64Array([1, 1, 0, 1.99]) });
        // Clusters out of range, counts that are not whole or run past the chunk.
        port.postMessage({ pass: request.pass, verdicts: new Float64Array([-1, 1, 0, 1.99]) });
        port.postMessage({ pass: request.pass, verdicts: new Float64Array([1e9, 1, 0, 1.99]) });
        port.postMessage({ pass: request.pass, verdicts: new Float64Array([2, 0.5, 0, 1.99]) });
        port.postMessage({ pass: request.pass, verdicts: new Float64Array([3, 40, 0, 1.99]) });
        port.postMessage({ pass: request.pass, verdicts: new Float64Array([Number.NaN, 1, 0, 1.99]) });
      });
    expect(summary(mergeClusters(readClusters(), asked))).toEqual(alone);
  });

  it("gives the same clusters with a worker thread that dies, or cannot be started", () => {
    mergeHelperSettings.fewestClusters = 0;
    mergeHelperSettings.start = (setup) =>
      startHelperThread(
        setup,
        `require("node:worker_threads").parentPort.on("message", () => { throw new Error("gone"); });`,
      );
    expect(summary(mergeClusters(readClusters(), asked))).toEqual(alone);
    mergeHelperSettings.start = () => {
      throw new Error("no threads here");
    };
    expect(summary(mergeClusters(readClusters(), asked))).toEqual(alone);
  });

  it("gives the same clusters with the worker thread of the package", () => {
    mergeHelperSettings.fewestClusters = 0;
    expect(summary(mergeClusters(readClusters(), asked))).toEqual(alone);
  });

  it("starts a thread only when asked, for enough clusters", () => {
    let started = 0;
    mergeHelperSettings.start = (setup) => {
      started++;
      return toldInFull(setup);
    };
    mergeClusters(readClusters(), asked);
    mergeHelperSettings.fewestClusters = 0;
    mergeClusters(readClusters());
    mergeClusters(readClusters(), { helperThread: false });
    expect(started).toBe(0);
    mergeClusters(readClusters(), asked);
    expect(started).toBe(1);
  });
});
