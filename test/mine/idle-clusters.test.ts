import { describe, expect, it } from "vitest";
import type { RecordsDefinition } from "../../src/index.js";
import { Clusters } from "../../src/mine/clusters.js";
import { mineHistory } from "../../src/mine/index.js";
import { generateCorpus } from "../fixtures/corpora/corpus.js";

async function mined(idleAfter: number) {
  const corpus = generateCorpus({
    domain: "insurance",
    style: "mail",
    seed: 3,
    messages: 400,
    languages: ["en", "de"],
  });
  const lines = [...corpus.lines()].map(({ line }) => JSON.stringify(line));
  const clusterOf: number[] = [];
  const report = await mineHistory(corpus.records as unknown as RecordsDefinition, lines, {
    idleAfter,
    onMessage: (line, cluster) => {
      clusterOf[line] = cluster;
    },
  });
  return { report, clusterOf };
}

describe("one-off messages kept in their compact form", () => {
  it("group a mail history exactly as counts kept whole do, greetings and subjects aside", async () => {
    const kept = await mined(Number.POSITIVE_INFINITY);
    // Counts dropped after a message, and never made for a new cluster's first member.
    for (const idleAfter of [1, 0]) {
      const compact = await mined(idleAfter);
      expect(compact.clusterOf).toEqual(kept.clusterOf);
      expect(compact.report).toEqual(kept.report);
    }
    expect(kept.report.candidates.some((candidate) => candidate.size === 1)).toBe(true);
  });
});

describe("a finished reading", () => {
  it("hands over its clusters and refuses another message, saying how to read more", () => {
    const clusters = new Clusters();
    const first = clusters.add("Your order {order.id} has shipped today.", "email:customer.email");
    clusters.add("Your order {order.id} has shipped today.", "email:customer.email");
    const other = clusters.add("We could not reach you about the refund for {order.id}.", undefined);
    const all = clusters.finish();
    expect(all.map((cluster) => cluster.id)).toEqual([first.id, other.id]);
    expect(all[0]?.size).toBe(2);
    expect(() => clusters.add("Your order {order.id} has shipped today.", undefined)).toThrow(
      /finished .*make a new Clusters/,
    );
  });
});
