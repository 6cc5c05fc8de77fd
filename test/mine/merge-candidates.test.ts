import { describe, expect, it } from "vitest";
import { RootIndex } from "../../src/mine/merge-candidates.js";

describe("RootIndex", () => {
  it("finds the roots sharing the most identity items, the earlier first on a tie, at most as many as asked", () => {
    const index = new RootIndex();
    index.add(["invoice", "overdue", "invoice overdue"]);
    index.add(["parcel", "arrived", "parcel arrived"]);
    index.add(["invoice", "paid", "invoice paid"]);
    index.add(["invoice", "overdue", "reminder", "invoice overdue"]);
    expect(index.nearest(["invoice", "overdue", "invoice overdue"], 6)).toEqual([0, 3, 2]);
    expect(index.nearest(["invoice", "overdue", "invoice overdue"], 2)).toEqual([0, 3]);
    expect(index.nearest(["invoice", "paid"], 6)).toEqual([2, 0, 3]);
    expect(index.nearest(["shipment"], 6)).toEqual([]);
  });

  it("leaves out a root the cluster shares under a fifth of the identity of", () => {
    const index = new RootIndex();
    index.add(["a", "b", "c", "d", "e", "f"]);
    index.add(["a", "b", "c", "d", "e"]);
    expect(index.nearest(["a"], 6)).toEqual([1]);
  });

  it("counts each root once however many items lead to it, and forgets the counts between look-ups", () => {
    const index = new RootIndex();
    for (let at = 0; at < 300; at++) index.add(["common", `own${at}`]);
    // An item past 256 roots says too little to look through: only the own item counts.
    expect(index.nearest(["common", "own299"], 6)).toEqual([299]);
    expect(index.nearest(["common", "own5", "own7"], 6)).toEqual([5, 7]);
  });
});
