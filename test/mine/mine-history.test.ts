import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type CorpusLine,
  corpusTemplates,
  historyCorpus,
  historyRecords,
} from "../../examples/data/history-corpus.js";
import { defineRecords } from "../../src/index.js";
import {
  maskMessage,
  mineHistory,
  parseSentMessage,
  recipientSource,
  valueIndex,
} from "../../src/mine/index.js";
import { SignatureIndex, signature } from "../../src/mine/minhash.js";
import { phoneDigits } from "../../src/mine/renderings.js";
import { hostileStrings } from "../../src/testing/index.js";

async function mined(corpus: readonly CorpusLine[]) {
  const firstCluster = new Map<number, number>();
  const report = await mineHistory(
    historyRecords,
    corpus.map((entry) => JSON.stringify(entry.line)),
    { onMessage: (line, cluster) => firstCluster.set(line, cluster) },
  );
  // A message belongs to the candidate its first cluster was merged into.
  const candidateOf = new Map<number, number>();
  for (const candidate of report.candidates)
    for (const id of candidate.clusters) candidateOf.set(id, candidate.id);
  const clusterOf = new Map([...firstCluster].map(([line, id]) => [line, candidateOf.get(id) as number]));
  return { report, clusterOf };
}

describe("mineHistory on a history with known templates", () => {
  const corpus = [...historyCorpus({ messages: 2000, seed: 5 })];
  let once: ReturnType<typeof mined> | undefined;
  // Mined once for the tests below, which read different parts of the same report.
  beforeAll(async () => {
    once = mined(corpus);
    await once;
  }, 120_000);

  it("recovers each template as one cluster: precision and recall of at least 0.95", async () => {
    const { report, clusterOf } = await (once as ReturnType<typeof mined>);
    const sizes = new Map<number, number>();
    for (const cluster of clusterOf.values()) sizes.set(cluster, (sizes.get(cluster) ?? 0) + 1);
    for (const template of corpusTemplates) {
      const members = corpus.flatMap((entry, index) => (entry.template === template ? [index + 1] : []));
      const byCluster = new Map<number, number>();
      for (const line of members) {
        const cluster = clusterOf.get(line) as number;
        byCluster.set(cluster, (byCluster.get(cluster) ?? 0) + 1);
      }
      const [best, count] = [...byCluster].sort((a, b) => b[1] - a[1])[0] as [number, number];
      expect(count / members.length, `recall of ${template}`).toBeGreaterThanOrEqual(0.95);
      expect(count / (sizes.get(best) as number), `precision of ${template}`).toBeGreaterThanOrEqual(0.95);
    }
    expect(report.candidates.filter((candidate) => candidate.templatable)).toHaveLength(
      corpusTemplates.length,
    );
  });

  it("masks the slots each template needs and finds the closed choices", async () => {
    const { report } = await (once as ReturnType<typeof mined>);
    const refund = report.candidates.find((candidate) => candidate.skeleton.includes("please refund"));
    expect(refund?.slots).toEqual([
      "{{order.number}}",
      "{{order.placedAt}}",
      "{{order.total}}",
      "{{seller.shopName}}",
    ]);
    const damage = report.candidates.find((candidate) =>
      candidate.skeleton.includes("reports that the parcel"),
    );
    const words = damage?.choiceWords.map((choice) => choice.word) ?? [];
    expect(words).toEqual(expect.arrayContaining(["crushed", "scratched", "soaking", "wet"]));
    // Sign-offs vary inside every cluster: boilerplate, not a choice.
    expect(words).not.toContain("regards");
  });

  it("predicts the escalation rate of the full catalog and the new-recipient rate within their intervals", async () => {
    const { report } = await (once as ReturnType<typeof mined>);
    const truth =
      corpus.filter((entry) => entry.template === undefined || entry.newAddress).length / corpus.length;
    const full = report.coverage.at(-1);
    expect(full?.k).toBe(corpusTemplates.length);
    expect(Math.abs((full?.escalationRate ?? 1) - truth)).toBeLessThan(0.01);
    expect(full?.interval.low).toBeLessThan(truth);
    expect(full?.interval.high).toBeGreaterThan(truth);
    const newTruth = corpus.filter((entry) => entry.newAddress).length;
    expect(report.newRecipients.count).toBe(newTruth);
    // The coverage curve rises and the predicted rate falls with every template added.
    for (let k = 1; k < report.coverage.length; k++) {
      expect(report.coverage[k]?.covered).toBeGreaterThan(report.coverage[k - 1]?.covered as number);
    }
    // Ten minutes between messages: 144 a day.
    expect(report.messagesPerDay).toBeCloseTo(144, 0);
    expect(full?.humanPerDay?.high).toBeCloseTo((full?.interval.high ?? 0) * 144, 0);
  });

  it("streams from an async iterable and counts malformed lines with their numbers", async () => {
    async function* lines() {
      yield JSON.stringify(corpus[0]?.line);
      yield "not json";
      yield "[1,2]";
      yield JSON.stringify({ ticketId: "T", records: {}, message: { to: 5, text: "x" } });
      yield JSON.stringify({
        ticketId: "T",
        records: {},
        message: { to: "a@b.example", text: "x" },
        at: 1e300,
      });
      yield "";
      yield JSON.stringify(corpus[1]?.line);
    }
    const report = await mineHistory(historyRecords, lines());
    expect(report.messages).toBe(2);
    expect(report.malformed).toBe(4);
    expect(report.problems).toEqual([
      { line: 2, problem: "not JSON" },
      { line: 3, problem: "not an object" },
      { line: 4, problem: "message.to is not a string" },
      { line: 5, problem: "at is neither an ISO 8601 time nor epoch milliseconds" },
    ]);
  });
});

describe("masking", () => {
  const records = defineRecords({
    orders: z.object({
      id: z.string(),
      number: z.string(),
      placedOn: z.string(),
      total: z.number(),
      currency: z.string(),
      qty: z.number(),
    }),
    people: z.object({ id: z.string(), name: z.string(), phone: z.string(), email: z.string() }),
  });
  const ticket = {
    orders: [
      { id: "o1", number: "4471-2290", placedOn: "2026-03-02", total: 1234.5, currency: "EUR", qty: 2 },
    ],
    people: [{ id: "p1", name: "Lucía  Ortega", phone: "+49 151 2345678", email: "Lucia@Mail.example" }],
  };
  const index = valueIndex(records, ticket);

  it.each([
    ["Order 4471-2290 is late", "Order {{order.number}} is late"],
    [
      "placed on 2 Mar 2026, on March 2, 2026 and on 02.03.2026",
      "placed on {{order.placedOn}}, on {{order.placedOn}} and on {{order.placedOn}}",
    ],
    ["refund €1,234.50 or 1.234,50 € now", "refund {{order.total}} or {{order.total}} now"],
    [
      "call LUCÍA ortega on 0151 2345678 or +49 151 2345678",
      "call {{person.name}} on {{person.phone}} or {{person.phone}}",
    ],
    ["mail lucia@mail.example today", "mail {{person.email}} today"],
  ])("%s", (text, skeleton) => {
    expect(maskMessage(text, index).skeleton).toBe(skeleton);
  });

  it("masks a number written without its country code where the message writes it as the record does", () => {
    // Read with no country, such a number parses in no form: masking finds it as written, in the text given.
    for (const phone of ["0151 2345678", "(0151) 234-5678", "0049 151 2345678"]) {
      const national = { ...ticket, people: [{ ...ticket.people[0], phone }] };
      expect(phoneDigits(phone)).toEqual([]);
      const text = `call me on ${phone} today`;
      for (const built of [valueIndex(records, national), valueIndex(records, national, { text })])
        expect(maskMessage(text, built).skeleton).toBe("call me on {{person.phone}} today");
    }
  });

  it.each([
    "refund €1,234.50 or 1.234,50 € now",
    "call LUCÍA ortega on 0151 2345678 or +49 151 2345678",
    "Order 4471-2290 is late",
  ])("an index built for the text masks %s as the full index does", (text) => {
    expect(maskMessage(text, valueIndex(records, ticket, { text })).skeleton).toBe(
      maskMessage(text, index).skeleton,
    );
  });

  it("an index built for a text masks it, and any part of it, as the full index does", () => {
    const written = index.values.map(([rendering]) => rendering);
    const piece = fc.oneof(
      fc.constantFrom(...written, "LUCÍA ORTEGA", "ΣΟΦΊΑ Σ", "İstanbul", "\u00a0", "\n\n", " 4471-2290x"),
      fc.string({ unit: "grapheme", maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.array(piece, { maxLength: 8 }), (head, tail) => {
        const [first, second] = [head.join(" "), tail.join("")];
        const text = `${first}\n${second}`;
        const lean = valueIndex(records, ticket, { text });
        for (const part of [text, first, second])
          expect(maskMessage(part, lean)).toEqual(maskMessage(part, index));
      }),
      { numRuns: 200 },
    );
  });

  it("an index built for a text leaves out numbers and phone numbers whose digits it does not hold", () => {
    const lean = valueIndex(records, ticket, { text: "nothing numeric here" });
    expect(lean.phones.size).toBe(0);
    expect(lean.values.some(([, placeholder]) => placeholder === "{{order.total}}")).toBe(false);
    expect(lean.values.some(([, placeholder]) => placeholder === "{{person.name}}")).toBe(true);
  });

  it("masks a value only as a whole word or number, never inside a longer one", () => {
    expect(maskMessage("ref 94471-22901 and 4471-2290x", index).skeleton).toBe(
      "ref 94471-22901 and 4471-2290x",
    );
  });

  it("never shows a record value in a candidate's skeleton, hostile values included", async () => {
    const hostile = hostileStrings.filter((value) => value.trim().length >= 3).slice(0, 40);
    const lines = hostile.map((name, n) =>
      JSON.stringify({
        ticketId: `T-${n}`,
        records: { people: [{ id: `p${n}`, name, phone: "+49 151 2345678", email: `p${n}@mail.example` }] },
        message: {
          to: `p${n}@mail.example`,
          text: `Dear ${name}, your parcel is on its way. Regards, the team`,
        },
      }),
    );
    const report = await mineHistory(records, lines, { minSize: 2 });
    const shown = report.candidates.map((candidate) => candidate.skeleton).join("\n");
    for (const name of hostile) {
      const word = name.trim().toLowerCase();
      if (/[\p{L}\p{N}]{4,}/u.test(word) && !"dear your parcel is on its way regards the team".includes(word))
        expect(shown.toLowerCase()).not.toContain(word);
    }
    expect(report.candidates[0]?.skeleton).toContain("your parcel is on its way");
  });

  it("never reads the history's own braces as a placeholder: only masked values are slots", async () => {
    expect(maskMessage("see {{to}} and {{{order.number}}} for 4471-2290", index).skeleton).toBe(
      "see { {to} } and { { {order.number} } } for {{order.number}}",
    );
    const lines = Array.from({ length: 4 }, (_, n) =>
      JSON.stringify({
        ticketId: `T-${n}`,
        records: {
          people: [{ id: `p${n}`, name: "Zoë Ünal", phone: "+49 151 2345678", email: `p${n}@mail.example` }],
        },
        message: { to: `p${n}@mail.example`, text: "Dear {{person.name}}, {{to}} {{order.number}} Zoë Ünal" },
      }),
    );
    const report = await mineHistory(records, lines);
    expect(report.candidates[0]?.slots).toEqual(["{{person.name}}"]);
  });

  it("names placeholders only after declared fields, whatever keys a history's records hold", () => {
    const sneaky = valueIndex(records, {
      orders: [{ id: "o9", "}}{{#x": "sneaky value", number: "7777-1111" }],
    });
    expect(sneaky.values.map(([, placeholder]) => placeholder)).not.toContain("{{order.}}{{#x}}");
    expect(maskMessage("see sneaky value", sneaky).skeleton).toBe("see sneaky value");
  });
});

describe("recipientSource", () => {
  const records = defineRecords({
    sellers: z.object({ id: z.string(), email: z.string(), phone: z.string() }),
  });
  const ticket = { sellers: [{ id: "s1", email: "Shop@Lumen.example", phone: "+49 151 2345678" }] };

  it.each([
    ["shop@lumen.example", "seller.email"],
    ["  SHOP@LUMEN.EXAMPLE ", "seller.email"],
    ["+491512345678", "seller.phone"],
    ["+49 (151) 234-5678", "seller.phone"],
    ["shop@lumen.example.evil", undefined],
    ["other@lumen.example", undefined],
    ["", undefined],
  ])("%s → %s", (to, source) => {
    expect(recipientSource(records, ticket, to)).toBe(source);
  });

  it("reads a line's fields without trusting their types", () => {
    expect(
      parseSentMessage(JSON.stringify({ ticketId: "T", records: [], message: { to: "a", text: "b" } })),
    ).toEqual({
      problem: "records is not an object of collections",
    });
    expect(
      parseSentMessage('{"ticketId":"T","records":{},"message":{"to":"a","text":"b","subject":7}}'),
    ).toEqual({
      problem: "message.subject is not a string",
    });
  });
});

describe("the signature index", () => {
  it("holds a bounded number of entries per bucket, so look-ups stay short on repetitive text", () => {
    const index = new SignatureIndex<number>();
    const same = signature(new Set(["the", "same", "words"]));
    for (let entry = 0; entry < 1000; entry++) index.add(same, entry);
    const found = index.candidates(same);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(32);
    expect(found).toContain(0);
    // Asked for fewer, it gives the ones sharing the most bands.
    const near = new SignatureIndex<string>();
    near.add(signature(new Set(["one", "two", "three", "four"])), "far");
    near.add(same, "near");
    expect(near.candidates(same, 1)).toEqual(["near"]);
  });
});
