import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRecords } from "../../src/index.js";
import { align } from "../../src/mine/align.js";
import { otherTemplate } from "../../src/mine/alternations.js";
import { clusterLines, mineHistory } from "../../src/mine/index.js";
import { tokensOf } from "../../src/mine/tokens.js";

const line = (text: string) => tokensOf(text, true);

describe("align", () => {
  it("reads one word in another's place as one substitution", () => {
    const found = align(line("your parcel arrived crushed today."), line("your parcel arrived wet today."));
    expect(found).toMatchObject({ substitutions: 1, widest: 1, insertions: 0, partial: 0 });
  });

  it("reads a sentence only one side holds as an insertion, and words added inside a sentence as partial", () => {
    const optional = align(
      line("your parcel left today. please check the tracking page."),
      line("your parcel left today. we are sorry for the wait. please check the tracking page."),
    );
    expect(optional).toMatchObject({ substitutions: 0, insertions: 1, partial: 0 });
    const changed = align(line("session closed for user"), line("session closed for user by remote host"));
    expect(changed).toMatchObject({ insertions: 0, partial: 1 });
  });

  it("matches a moved clause where it went, and a word mistyped as the word", () => {
    const moved = align(
      line("at noon your flight to rome now departs. your booking stays valid."),
      line("your flight to rome now departs at noon. your booking stays valid."),
    );
    expect(moved.partial + moved.substitutions).toBe(0);
    expect(align(line("please recieve the parcel"), line("please receive the parcel")).matched).toBe(4);
  });

  it("reads a slot written in a reworded clause elsewhere as moved, and two slots in no clause of the other as two places", () => {
    const reworded = align(
      line("since {{claim.openedOn}} your claim {{claim.id}} has been under review. we will write again."),
      line("your claim {{claim.id}} is under review, opened on {{claim.openedOn}}. we will write again."),
    );
    expect(reworded).toMatchObject({ substitutions: 1, insertions: 0, partial: 0 });
    const otherSlots = align(
      line("since {{claim.openedOn}} your claim {{claim.id}} has been under review. we will write again."),
      line("your claim {{claim.id}} is under review, paid to {{claim.iban}}. we will write again."),
    );
    expect(otherSlots.partial + otherSlots.insertions).toBeGreaterThan(0);
  });

  it("reads a clause moved elsewhere that opens alike and goes on otherwise as one place", () => {
    const moved = align(
      line(
        "because the crane is booked, the delivery of your order takes longer than planned. call us any time.",
      ),
      line(
        "the delivery of your order takes longer than planned because the road is closed. call us any time.",
      ),
    );
    expect(moved).toMatchObject({ substitutions: 1, partial: 0 });
    // Without the opening words alike, the two clauses are two places.
    const unlike = align(
      line(
        "sadly the crane is booked, the delivery of your order takes longer than planned. call us any time.",
      ),
      line(
        "the delivery of your order takes longer than planned because the road is closed. call us any time.",
      ),
    );
    expect(unlike.partial).toBe(2);
  });

  it("reads a day written with a dot before its month as part of the date, not a sentence's end", () => {
    // The month's name beside the numbers is the date's too.
    expect(line("first seen on 18. Januar 2026 at noon.")).toEqual(
      "first seen on <#> <#> <#> at noon §".split(" "),
    );
    expect(line("it took 18. Then it stopped.").filter((token) => token === "§")).toHaveLength(1);
  });

  it("reads month and weekday names beside a number as the date's, and alone as words", () => {
    expect(line("connection at Fri Jun 17 07:07:00 2005")).toEqual(
      "connection at <#> <#> <#> <#> <#>".split(" "),
    );
    expect(line("we may call you on 3 May 2026")).toEqual("we may call you on <#> <#> <#>".split(" "));
    expect(line("lundi 4 mars, nous passons")).toEqual("<#> <#> <#> nous passons".split(" "));
  });

  it("does not let a lone shared word split one difference into two", () => {
    // "the" is in both differing sentences; anchoring on it would make two places of difference.
    const found = align(
      line("the claimed amount is high. photos are attached to the claims system."),
      line("the claimed amount is high. we will call you on the phone."),
    );
    expect(found.substitutions + found.partial + found.insertions).toBe(1);
  });
});

describe("otherTemplate", () => {
  const members = (texts: readonly string[]) => texts.map(line);

  it("finds two templates whose words alternate together in two places", () => {
    const texts = Array.from({ length: 16 }, (_, n) =>
      n % 3 === 0
        ? `this is the last notice that invoice ${n} for the hall hire was open since monday.`
        : `this is the first notice that invoice ${n} for the hall hire is open since monday.`,
    );
    const leaves = otherTemplate(members(texts)) as boolean[];
    expect(leaves).toBeDefined();
    const lastNotice = texts.map((text) => text.includes("last"));
    // One side leaves, whichever it is: every member of it, and none of the other.
    expect(
      leaves.every((leaving, at) => leaving === lastNotice[at]) ||
        leaves.every((leaving, at) => leaving !== lastNotice[at]),
    ).toBe(true);
  });

  it("still finds them when a member or two mistyped one of the words", () => {
    const texts = Array.from({ length: 31 }, (_, n) => {
      const last = n % 3 === 0;
      const word = last ? (n === 9 ? "lsat" : "last") : n === 4 ? "frist" : "first";
      const verb = last ? (n === 12 ? "wsa" : "was") : "is";
      return `this is the ${word} notice that invoice ${n} for the hall hire ${verb} open since monday.`;
    });
    const leaves = otherTemplate(members(texts)) as boolean[];
    expect(leaves).toBeDefined();
    // Parted by one word: only a member that mistyped a word may be left on the wrong side.
    const lastSide = leaves[0] === true;
    const wrong = leaves.flatMap((leaving, at) => ((leaving === lastSide) === (at % 3 === 0) ? [] : [at]));
    expect(wrong.filter((at) => ![4, 9, 12].includes(at))).toEqual([]);
  });

  it("keeps one template whose choice, optional sentence and greeting vary on their own", () => {
    const texts = Array.from({ length: 16 }, (_, n) => {
      const choice = n % 2 === 0 ? "arrange" : "organise";
      const optional = n % 3 === 0 ? " the tenant is at home in the mornings." : "";
      return `the boiler at flat ${n} is broken. could you ${choice} a visit by a plumber this week?${optional}`;
    });
    expect(otherTemplate(members(texts))).toBeUndefined();
    // A choice of phrases is one place, though its words alternate together.
    const phrases = Array.from({ length: 16 }, (_, n) =>
      n % 2 === 0
        ? `the repair takes longer because a part is back-ordered. call the garage.`
        : `the repair takes longer because the paint shop is fully booked. call the garage.`,
    );
    expect(otherTemplate(members(phrases))).toBeUndefined();
  });
});

const greetings = ["Hello,", "Hi there,", "Dear team,", "Good morning,"];
const signOffs = ["Best regards, Anna", "Thanks, Marco", "Cheers, Sam", "Kind regards, the support team"];
const vocabulary =
  "account address balance booking branch cabinet calendar carrier contract courier customer delivery deposit document engine estimate garage harbour invoice kitchen ladder meeting mirror notice office package payment pickup policy printer quote receipt repair report schedule seller shipment station storage supplier ticket transfer vehicle warehouse window".split(
    " ",
  );

/** A template: a few sentences of distinct words drawn from the vocabulary, each with a value in it. */
const templateText = fc
  .shuffledSubarray(vocabulary, { minLength: 18, maxLength: 24 })
  .map((words) => [words.slice(0, 8), words.slice(8, 14), words.slice(14)]);

function written(sentences: readonly (readonly string[])[], variant: number, value: number): string {
  const body = sentences.map((words, at) => {
    const text = [...words];
    // A typo in one long word, now and then.
    if (variant % 5 === at && (text[2] as string).length >= 5) {
      const word = text[2] as string;
      text[2] = `${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}`;
    }
    if (at === 0) text.splice(3, 0, `#${value}`);
    return `${text.join(" ")}.`;
  });
  // The last sentence is optional.
  if (variant % 3 === 0) body.pop();
  return `${greetings[variant % greetings.length]}\n\n${body.join(" ")}\n\n${signOffs[(variant >> 2) % signOffs.length]}`;
}

const peopleAndLeaks = defineRecords({
  people: z.object({ id: z.string(), email: z.email() }),
  leaks: z.object({ id: z.string(), place: z.string(), seenOn: z.string() }),
});

/** The candidate each message ended in, through `onMessage` and each candidate's merged clusters. */
async function minedGroups(
  texts: readonly string[],
  leaks: readonly { place: string; seenOn: string }[] = [],
): Promise<number[]> {
  const first: number[] = [];
  const lines = texts.map((text, n) =>
    JSON.stringify({
      ticketId: `T-${n}`,
      records: {
        people: [{ id: `p${n}`, email: `p${n}@mail.example` }],
        ...(leaks[n] === undefined ? {} : { leaks: [{ id: `l${n}`, ...leaks[n] }] }),
      },
      message: { to: `p${n}@mail.example`, text },
    }),
  );
  const report = await mineHistory(peopleAndLeaks, lines, {
    onMessage: (line, cluster) => {
      first[line - 1] = cluster;
    },
  });
  const into = new Map<number, number>();
  for (const candidate of report.candidates) for (const id of candidate.clusters) into.set(id, candidate.id);
  return first.map((id) => into.get(id) as number);
}

describe("grouping", () => {
  it("puts every variant of one template in one cluster: greetings, sign-offs, typos, an optional sentence", async () => {
    await fc.assert(
      fc.asyncProperty(templateText, fc.integer({ min: 0, max: 1000 }), async (sentences, seed) => {
        const texts = Array.from({ length: 24 }, (_, n) => written(sentences, n + seed, 100 + n));
        expect(new Set(await minedGroups(texts)).size).toBe(1);
      }),
      { numRuns: 40, seed: 36 },
    );
  });

  it("never merges two templates that share their greetings and sign-offs", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(vocabulary, { minLength: 36, maxLength: 40 }),
        fc.integer({ min: 0, max: 1000 }),
        async (words, seed) => {
          const first = [words.slice(0, 6), words.slice(6, 12), words.slice(12, 18)];
          const second = [words.slice(18, 24), words.slice(24, 30), words.slice(30, 36)];
          const lines = Array.from({ length: 40 }, (_, n) =>
            written(n % 2 === 0 ? first : second, n + seed, 100 + n),
          );
          const groups = await minedGroups(lines);
          for (let n = 0; n < lines.length; n++) {
            for (let m = n + 1; m < lines.length; m++) {
              if (n % 2 !== m % 2) expect(groups[n]).not.toBe(groups[m]);
            }
          }
        },
      ),
      { numRuns: 40, seed: 36 },
    );
  });

  it("merges a template the reading split into many clusters, though its words then seem spread over many", async () => {
    // One template written eight ways (greetings, an optional sentence, a reworded clause, typos) beside
    // two others: its parts are most of the clusters, so its words look like boilerplate until they merge.
    const texts: string[] = [];
    const leaks: { place: string; seenOn: string }[] = [];
    const openings = ["Hello,", "Dear Sam,", "Good morning,", "Hi there,"];
    for (let n = 0; n < 96; n++) {
      const leak = {
        place: `the gutter above flat ${n + 10}`,
        seenOn: `2026-03-${String((n % 28) + 1).padStart(2, "0")}`,
      };
      leaks.push(leak);
      const clause =
        n % 3 === 0
          ? `since ${leak.seenOn} ${leak.place} has leaked.`
          : `${leak.place} leaks, first seen on ${leak.seenOn}.`;
      const optional = n % 2 === 0 ? " The tenant is home most mornings." : "";
      const visit = n % 5 === 0 ? "Could you organise a roofer visit?" : "Could you arrange a roofer visit?";
      texts.push(`${openings[n % 4]} ${clause} ${visit}${optional} Best regards, Anna`);
    }
    const groups = await minedGroups(texts, leaks);
    expect(new Set(groups.slice(0, 96)).size).toBe(1);
    expect(groups[96]).not.toBe(groups[0]);
    expect(groups[126]).not.toBe(groups[0]);
  });

  it("parts two templates read into one cluster that differ in two words alternating together", async () => {
    const texts = Array.from({ length: 90 }, (_, n) =>
      n % 2 === 0
        ? `Hello, this is the first notice that invoice ${n} for the hall hire is open since Monday. Best regards, Anna`
        : `Hello, this is the last notice that invoice ${n} for the hall hire was open since Monday. Best regards, Anna`,
    );
    const groups = await minedGroups(texts);
    for (let n = 2; n < texts.length; n++) expect(groups[n] === groups[0]).toBe(n % 2 === 0);
  });

  it("gives clusterLines' early lines the group of the template they were parted into", () => {
    const lines = Array.from({ length: 90 }, (_, n) =>
      n % 2 === 0
        ? `this is the first notice that invoice ${n} for the hall hire is open since monday.`
        : `this is the last notice that invoice ${n} for the hall hire was open since monday.`,
    );
    const groups = clusterLines(lines);
    for (let n = 2; n < lines.length; n++) expect(groups[n] === groups[0]).toBe(n % 2 === 0);
  });

  it("keeps lines that differ by a phrase within a short frame apart", () => {
    const lines = [
      ...Array.from({ length: 20 }, (_, n) => `mod_jk child workerEnv in error state ${n}`),
      ...Array.from({ length: 10 }, (_, n) => `mod_jk child init ${n} -2`),
    ];
    const groups = clusterLines(lines);
    expect(new Set(groups.slice(0, 20)).size).toBe(1);
    expect(new Set(groups.slice(20)).size).toBe(1);
    expect(groups[20]).not.toBe(groups[0]);
  });

  it("groups short lines that differ only by one word at one place, once three or more do", () => {
    const users = ["webmaster", "admin", "oracle", "postgres", "guest", "test", "support", "ubnt"];
    const lines = users.flatMap((user, n) => [
      `Invalid user ${user} from 10.0.0.${n}`,
      `Invalid user ${user} from 10.0.1.${n}`,
    ]);
    lines.push("Invalid user from 10.0.2.1", "Connection closed by 10.0.0.1 port 22");
    const groups = clusterLines(lines);
    expect(new Set(groups.slice(0, lines.length - 1)).size).toBe(1);
    expect(groups.at(-1)).not.toBe(groups[0]);
  });

  it("merges a part of a template whose first members mistyped one of its words", async () => {
    // The first members of the part without the optional sentence mistype "reception": the part's line,
    // read from them, would miss the word and no longer align with the rest.
    const texts: string[] = [];
    const leaks: { place: string; seenOn: string }[] = [];
    const typos = ["recepion", "recpetion", "receptoin"];
    for (let n = 0; n < 60; n++) {
      const leak = { place: `Hotel ${n + 10}`, seenOn: `2026-03-${String((n % 28) + 1).padStart(2, "0")}` };
      leaks.push(leak);
      const optional = n < 40;
      const reception = !optional && n < 43 ? typos[n - 40] : "reception";
      texts.push(
        `Good afternoon, your room at ${leak.place} is booked from ${leak.seenOn} onwards.${optional ? " Please have your passport ready at check-in, with the booking number at hand." : ""} The ${reception} is open from seven in the morning until late.`,
      );
    }
    const groups = await minedGroups(texts, leaks);
    expect(new Set(groups).size).toBe(1);
  });

  it("gives the same groups whether one-member clusters keep their counts or read them again", () => {
    // One-off lines early, lines like them much later: a cluster of one read again must score, merge and
    // absorb as it did with its counts kept.
    const words = [
      "amber",
      "birch",
      "cedar",
      "delta",
      "ember",
      "fjord",
      "grove",
      "heron",
      "inlet",
      "juniper",
    ];
    const lines: string[] = [];
    for (let n = 0; n < 300; n++) {
      const [a, b, c] = [words[n % 10], words[(n * 3) % 10], words[(n * 7) % 10]];
      lines.push(`note ${a} ${b} about the ${c} shipment, see you on the ${b} dock`);
      lines.push(`the ${a} order ${n} left the ${b} depot today and reaches the ${c} hub soon`);
      if (n % 50 === 0) lines.push(`Invalid user ${a}${b} from 10.0.${n}.1`);
    }
    const kept = clusterLines(lines, { idleAfter: Number.POSITIVE_INFINITY });
    expect(clusterLines(lines, { idleAfter: 1 })).toEqual(kept);
    expect(clusterLines(lines, { idleAfter: 0 })).toEqual(kept);
    expect(new Set(kept).size).toBeGreaterThan(3);
  });

  it("joins a template's stray message to the template, however many one-off messages read more like it", () => {
    // The stray adds a long sentence of its own, which sixteen one-off messages also write beside words
    // of their own: they share more with it than the template does, and would crowd the few clusters it
    // is compared with, were a message or two a cluster that others join.
    const template = (n: number) =>
      `the quarterly maintenance report for building ${n} is ready and the technicians visit the site next tuesday morning.`;
    const tail =
      "my neighbour says the parking lot lights near the north entrance are broken again and nobody has fixed them since the storm last winter";
    const syllables = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "vo", "pe", "du"];
    // Made-up words, each one-off its own.
    const ownWords = (k: number) =>
      Array.from(
        { length: 26 },
        (_, w) =>
          `${syllables[k % 10]}${syllables[Math.floor(k / 10)]}${syllables[w % 10]}${syllables[Math.floor(w / 10)]}n`,
      ).join(" ");
    const lines: string[] = [];
    for (let n = 0; n < 12; n++) lines.push(template(n + 10));
    for (let k = 0; k < 16; k++) lines.push(`${tail}. ${ownWords(k)}.`);
    lines.push(`${template(99)} ${tail}.`);
    const groups = clusterLines(lines);
    expect(new Set(groups.slice(0, 12)).size).toBe(1);
    expect(groups.at(-1)).toBe(groups[0]);
    // The one-off messages are neither part of the template nor of one another.
    expect(new Set(groups.slice(12, 28)).size).toBe(16);
    for (let k = 12; k < 28; k++) expect(groups[k]).not.toBe(groups[0]);
  });

  it("gives the same groups for the same lines", () => {
    const lines = Array.from({ length: 60 }, (_, n) =>
      n % 3 === 0
        ? `disk ${n} is full on host alpha`
        : n % 3 === 1
          ? `user ${n} logged in`
          : `backup of volume ${n} done`,
    );
    const groups = clusterLines(lines);
    expect(clusterLines(lines)).toEqual(groups);
    expect(new Set(groups).size).toBe(3);
  });
});
