import { describe, expect, it } from "vitest";
import { messageCorpus } from "../../bench/mining/message-corpora.js";
import { minedGroups } from "../../bench/mining/mined-groups.js";

describe("minedGroups", () => {
  it("puts every line in the candidate its cluster was merged into: group sizes are candidate sizes", async () => {
    const history = messageCorpus("rentals", "plain", 3, 400);
    const lines = [...history.messages()].map((message) => message.json);
    const { report, groups } = await minedGroups(history.records, lines);
    expect(groups).toHaveLength(lines.length);
    expect(groups.includes(-1)).toBe(false);
    const sizes = new Map<number, number>();
    for (const group of groups) sizes.set(group, (sizes.get(group) ?? 0) + 1);
    // Clusters the reading split were merged: a line must be mapped through the merge, not kept in its first.
    expect(report.candidates.some((candidate) => candidate.clusters.length > 1)).toBe(true);
    expect(new Map(report.candidates.map((candidate) => [candidate.id, candidate.size]))).toEqual(sizes);
  });
});
