import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clusterLines } from "../../src/mine/index.js";
import { joinThreshold } from "../../src/mine/join-threshold.js";
import { numberToken, tokensOf } from "../../src/mine/tokens.js";
import { variablePlaceGroups } from "../../src/mine/variable-places.js";

/** How many groups `clusterLines` makes of each run of lines, and of all of them. */
function groupsOf(runs: readonly (readonly string[])[]): { each: number[]; all: number } {
  const groups = clusterLines(runs.flat());
  const each: number[] = [];
  let at = 0;
  for (const run of runs) {
    each.push(new Set(groups.slice(at, at + run.length)).size);
    at += run.length;
  }
  return { each, all: new Set(groups).size };
}

const ip = (n: number) => `10.${n % 7}.${n % 251}.${(n * 7) % 253}`;
const hex = (n: number) => `${(n * 2654435761).toString(16).padStart(8, "0")}-4e40-b8cc-${n}`;

describe("key=value tokens", () => {
  it("reads a chunk written key=value as its key and one value token, an empty value as the key alone", () => {
    expect(
      tokensOf("authentication failure; logname= uid=0 tty=NODEVssh rhost=zummit.com user=root"),
    ).toEqual(
      [
        "authentication",
        "failure",
        "logname",
        "uid",
        numberToken,
        "tty",
        numberToken,
        "rhost",
        numberToken,
      ].concat(["user", numberToken]),
    );
    expect(tokensOf("session opened by (uid=0)")).toEqual(["session", "opened", "by", "uid", numberToken]);
    expect(tokensOf("a == b")).toEqual(["a", "b"]);
  });

  it("gives any value after a key the same token", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z][a-z_]{0,8}$/),
        fc.stringMatching(/^[\w.:/-]{1,20}$/),
        (key, value) => {
          fc.pre(/[a-z0-9]/i.test(value));
          expect(tokensOf(`${key}=${value}`)).toEqual([...(key.match(/[a-z]+/g) ?? []), numberToken]);
        },
      ),
    );
  });

  it("groups lines whose value is a host in some and an address in others", () => {
    const hosts = ["zummit.com", "troi.bluesky-technologies.com", "example.org"];
    const lines = Array.from(
      { length: 30 },
      (_, n) =>
        `authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=${n % 3 === 0 ? hosts[n % hosts.length] : ip(n)}`,
    );
    expect(groupsOf([lines]).all).toBe(1);
  });
});

describe("joinThreshold", () => {
  const words = (line: string) => new Set(line.split(" "));
  const pairs = (line: string) => {
    const tokens = line.split(" ");
    return new Set(tokens.slice(1).map((token, at) => `${tokens[at]} ${token}`));
  };

  it("asks more of a short line than of a long one, and only the threshold of a line holding a placeholder", () => {
    const short = "instance <#> vm paused lifecycle event";
    const long = Array.from({ length: 40 }, (_, n) => `word${String.fromCharCode(97 + (n % 26))}${n}`).join(
      " ",
    );
    expect(joinThreshold(0.7, short, words(short), pairs(short))).toBeGreaterThan(0.85);
    expect(joinThreshold(0.7, long, words(long), pairs(long))).toBe(0.7);
    const slot = "your order {{order.number}} is ready";
    expect(joinThreshold(0.7, slot, words(slot), pairs(slot))).toBe(0.7);
  });

  it("asks only the threshold of prose: two sentences or more", () => {
    const prose = "your parcel is here. we are sorry it is late.";
    expect(joinThreshold(0.7, prose, words(prose), pairs(prose))).toBe(0.7);
    expect(joinThreshold(0.7, prose.replace(".", ","), words(prose), pairs(prose))).toBeGreaterThan(0.85);
  });

  it("never lets a one-statement line of ten words or fewer join a line with one word in another's place", () => {
    const vocabulary = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike".split(
      " ",
    );
    fc.assert(
      fc.property(
        fc.shuffledSubarray(vocabulary, { minLength: 3, maxLength: 11 }),
        fc.nat(),
        (chosen, at) => {
          const [other, ...line] = chosen as [string, ...string[]];
          const changed = [...line];
          changed[at % line.length] = other;
          const [a, b] = [line.join(" "), changed.join(" ")];
          const shared = [...words(a)].filter((word) => words(b).has(word)).length;
          const sharedPairs = [...pairs(a)].filter((pair) => pairs(b).has(pair)).length;
          const dice =
            (2 * (shared + sharedPairs)) / (words(a).size + pairs(a).size + words(b).size + pairs(b).size);
          expect(dice).toBeLessThan(joinThreshold(0.7, b, words(b), pairs(b)));
        },
      ),
    );
  });

  it("keeps short lines apart that differ by one word of a few, each written often", () => {
    const states = ["Paused", "Stopped", "Started", "Resumed"];
    const runs = states.map((state) =>
      Array.from({ length: 20 }, (_, n) => `[instance: ${hex(n)}] VM ${state} (Lifecycle Event)`),
    );
    const { each, all } = groupsOf(runs);
    expect(each).toEqual([1, 1, 1, 1]);
    expect(all).toBe(4);
  });
});

describe("merging clusters of log lines", () => {
  it("does not count numbers in the frame two lines differing at one place must agree on", () => {
    const request = (method: string, n: number) =>
      `req ${n} ${method} ${n * 3} status 200 len ${1000 + n} time 0.${n} node ${n % 5} port 80${n % 9} pid ${n * 11}`;
    const runs = ["GET", "POST"].map((method) => Array.from({ length: 20 }, (_, n) => request(method, n)));
    const { each, all } = groupsOf(runs);
    expect(each).toEqual([1, 1]);
    expect(all).toBe(2);
  });

  it("keeps a line or two apart from a bigger cluster when they agree on few words", () => {
    const runs = [
      Array.from(
        { length: 30 },
        (_, n) => `Receiving block blk_${n}7 src: /${ip(n)}:5${n} dest: /${ip(n + 1)}:50010`,
      ),
      Array.from(
        { length: 2 },
        (_, n) => `Received block blk_${n}9 src: /${ip(n)}:3${n} dest: /${ip(n + 2)}:50010 of size 6710${n}`,
      ),
    ];
    const { each, all } = groupsOf(runs);
    expect(each).toEqual([1, 1]);
    expect(all).toBe(2);
  });
});

describe("variablePlaceGroups", () => {
  const line = (text: string) => text.split(" ");

  it("reads a place as a value's when a line writes a number there", () => {
    const users = ["webmaster", "admin", "oracle", numberToken];
    const lines = users.map((user) => line(`invalid user ${user} from ${numberToken}`));
    expect(variablePlaceGroups(lines, [5, 5, 5, 5])).toEqual([[0, 1, 2, 3]]);
    expect(variablePlaceGroups(lines.slice(0, 3), [5, 5, 5])).toEqual([]);
  });

  it("reads a place as a value's when most of its lines are rare, or rare beside the most written word", () => {
    const users = ["root", "uucp", "ftp", "git", "sshd"];
    const lines = users.map((user) =>
      line(`failed password for ${user} from ${numberToken} port ${numberToken}`),
    );
    expect(variablePlaceGroups(lines, [300, 5, 3, 3, 2])).toEqual([[0, 1, 2, 3, 4]]);
    expect(variablePlaceGroups(lines, [30, 25, 30, 30, 20])).toEqual([]);
  });

  it("reads a place as a value's when its words fill the place of another frame too", () => {
    const users = ["cyrus", "news", "test"];
    const lines = [
      ...users.map((user) => line(`session opened for user ${user} by uid ${numberToken}`)),
      ...users.map((user) => line(`session closed for user ${user}`)),
    ];
    const sizes = lines.map(() => 40);
    expect(variablePlaceGroups(lines, sizes)).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    expect(variablePlaceGroups(lines.slice(0, 3), sizes)).toEqual([]);
  });

  it("groups log lines of one template whose user is a word in some and a number in others", () => {
    const users = ["webmaster", "admin", "test9", "0", "oracle"];
    const runs = users.map((user) =>
      Array.from({ length: 5 }, (_, n) => `Invalid user ${user} from ${ip(n + user.length)}`),
    );
    expect(groupsOf(runs).all).toBe(1);
  });
});
