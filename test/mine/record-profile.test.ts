import { describe, expect, it } from "vitest";
import { RecordProfile } from "../../src/mine/record-profile.js";

const ticket = (at: number) => ({ orders: [{ id: `O-${at}`, total: at }] });

describe("the record profile's sample of a long history", () => {
  it("says beforehand which tickets it reads: the first 2,000, then one in 8", () => {
    const profile = new RecordProfile();
    const read: number[] = [];
    for (let at = 1; at <= 2040; at++) {
      if (profile.readsNext) read.push(at);
      profile.observe(ticket(at));
    }
    expect(read.length).toBe(2000 + 5);
    expect(read.slice(1998)).toEqual([1999, 2000, 2008, 2016, 2024, 2032, 2040]);
    expect(profile.summary().tickets).toBe(2040);
  });

  it("reads the same tickets when a caller hands {} for those it would not read", () => {
    const whole = new RecordProfile();
    const handed = new RecordProfile();
    for (let at = 1; at <= 2100; at++) {
      whole.observe(ticket(at));
      handed.observe(handed.readsNext ? ticket(at) : {});
    }
    expect(handed.summary()).toEqual(whole.summary());
  });

  it("does not count what is not a ticket's records", () => {
    const profile = new RecordProfile();
    for (const hostile of [null, "orders", 7, [ticket(1)], undefined]) profile.observe(hostile);
    expect(profile.summary().tickets).toBe(0);
    expect(profile.readsNext).toBe(true);
  });
});
