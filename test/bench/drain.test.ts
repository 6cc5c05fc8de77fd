import { describe, expect, it } from "vitest";
import { Drain } from "../../bench/mining/drain.js";

/** The cluster id of each message, in order, through one parser. */
const ids = (drain: Drain, messages: readonly string[]) => messages.map((message) => drain.add(message));

describe("Drain", () => {
  it("puts a template's messages in one cluster and turns the positions that differ into <*>", () => {
    const drain = new Drain();
    expect(ids(drain, ["job 17 done in 3 s", "job 18 done in 12 s", "job 19 done in 4 s"])).toEqual([
      0, 0, 0,
    ]);
    expect(drain.template(0)).toBe("job <*> done in <*> s");
  });

  it("never compares messages of different lengths or, at depth 4, different first tokens", () => {
    const drain = new Drain({ similarity: 0.1 });
    expect(ids(drain, ["open file a b", "open file a b c", "close file a b"])).toEqual([0, 1, 2]);
  });

  it("joins at a share of equal tokens of exactly the threshold, not below", () => {
    const drain = new Drain({ similarity: 0.5, depth: 3 });
    expect(ids(drain, ["a b c d", "a b x y", "a q r s"])).toEqual([0, 0, 1]);
  });

  it("does not count a <*> of the template as an equal token", () => {
    const drain = new Drain({ similarity: 0.5, depth: 3 });
    ids(drain, ["a b c d", "a b x y"]);
    // Against "a b <*> <*>", "a z c d" has one equal token of four, though it equals the first message in three.
    expect(drain.add("a z c d")).toBe(1);
  });

  it("sends first tokens with digits to the <*> node, and a new token searches there too", () => {
    const drain = new Drain();
    expect(ids(drain, ["u1 login ok", "u2 login ok", "alice login ok"])).toEqual([0, 0, 0]);
    // A token with a node of its own is compared only with that node's clusters.
    const named = new Drain();
    expect(ids(named, ["alice login ok", "bob login ok"])).toEqual([0, 1]);
  });

  it("shares the <*> node among new tokens once a node has maxChildren children", () => {
    const messages = ["a x", "b x", "c x", "d x"];
    expect(ids(new Drain({ similarity: 0.5 }), messages)).toEqual([0, 1, 2, 3]);
    // With room for three children, a and b get their own and the third place goes to <*>, shared by c and d.
    expect(ids(new Drain({ similarity: 0.5, maxChildren: 3 }), messages)).toEqual([0, 1, 2, 2]);
  });

  it("gives a new token its own child while the node has room beside an existing <*> child", () => {
    // The <*> child exists first (a token with digits); b and c then take the two places left of three.
    // Had c gone to <*>, the last message would find it there and join it.
    const drain = new Drain({ similarity: 0.5, maxChildren: 3 });
    expect(ids(drain, ["1x p", "b q", "c r", "9y r"])).toEqual([0, 1, 2, 3]);
  });

  it("masks every match of each expression, whatever its flags, before tokenising", () => {
    const drain = new Drain({ masks: [/(\d+\.){3}\d+/] });
    expect(drain.add("from 10.0.0.1 to 10.0.0.2")).toBe(0);
    expect(drain.template(0)).toBe("from <*> to <*>");
  });

  it("takes empty, blank, prototype-named and empty-matching input without failing", () => {
    const drain = new Drain();
    expect(ids(drain, ["", "  \t ", "__proto__ constructor", "toString x", "__proto__ constructor"])).toEqual(
      [0, 0, 1, 2, 1],
    );
    expect(drain.template(0)).toBe("");
    // An expression that matches the empty string masks between characters, as a replace-all does.
    const everywhere = new Drain({ masks: [/(?:)/] });
    everywhere.add("ab");
    expect(everywhere.template(0)).toBe("<*>a<*>b<*>");
    const long = Array.from({ length: 50_000 }, (_, i) => `t${i}`).join(" ");
    expect(new Drain().add(long)).toBe(0);
  });

  it("refuses options it cannot run with, naming the option", () => {
    expect(() => new Drain({ depth: 2 })).toThrow(/depth must be an integer of at least 3/);
    expect(() => new Drain({ depth: 4.5 })).toThrow(/depth/);
    expect(() => new Drain({ similarity: 1.5 })).toThrow(/similarity must be a number from 0 to 1/);
    expect(() => new Drain({ similarity: Number.NaN })).toThrow(/similarity/);
    expect(() => new Drain({ maxChildren: 0 })).toThrow(/maxChildren must be a positive integer/);
    expect(() => new Drain().template(0)).toThrow(/no cluster 0/);
  });
});
