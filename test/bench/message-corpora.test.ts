import { describe, expect, it } from "vitest";
import { exampleHistory, messageCorpus, rotatedCorpus } from "../../bench/mining/message-corpora.js";
import { corpusDomains, generateCorpus } from "../fixtures/corpora/corpus.js";

describe("labelled message histories", () => {
  it("gives mine the corpus line, Drain its text on one line, and the truth of each message", () => {
    // The same corpus as the benchmark's: English and German tickets.
    const bilingual = ["en", "de"] as const;
    const truth = [
      ...generateCorpus({
        domain: "travel",
        style: "mail",
        seed: 4,
        messages: 300,
        languages: bilingual,
      }).lines(),
    ];
    const messages = [...messageCorpus("travel", "mail", 4, 300).messages()];
    expect(messages).toHaveLength(truth.length);
    for (const [at, message] of messages.entries()) {
      const line = truth[at];
      expect(JSON.parse(message.json)).toEqual(JSON.parse(JSON.stringify(line?.line)));
      expect(message.template).toBe(line?.template);
      expect(message.escalates).toBe(line?.template === undefined || line?.newRecipient === true);
      expect(message.text).not.toMatch(/\s{2}|[\n\r\t]|^\s|\s$/);
    }
    // Mail exports carry line breaks and free-form and new-recipient lines are mixed in: the checks above bite.
    expect(truth.some((line) => line.line.message.text.includes("\n"))).toBe(true);
    expect(messages.some((message) => message.escalates && message.template !== undefined)).toBe(true);
    expect(messages.some((message) => message.template === undefined)).toBe(true);
  });

  it("rotates through every domain in both styles before repeating one", () => {
    const names = Array.from(
      { length: corpusDomains.length * 2 },
      (_, at) => rotatedCorpus(corpusDomains, at, 1, 0).name,
    );
    expect(new Set(names).size).toBe(corpusDomains.length * 2);
    expect(rotatedCorpus(corpusDomains, corpusDomains.length * 2, 1, 0).name).toBe(names[0]);
  });

  it("labels the bundled example: free-form lines have no template and escalate", () => {
    const messages = [...exampleHistory(2, 400).messages()];
    expect(
      messages.filter((message) => message.template === undefined).every((message) => message.escalates),
    ).toBe(true);
    expect(new Set(messages.map((message) => message.template)).size).toBeGreaterThan(2);
  });
});
