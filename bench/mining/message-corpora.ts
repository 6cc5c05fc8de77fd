/**
 * The message histories `mine` is measured on, each line with the truth about it, in one shape for both
 * sources: the hard generated corpora of the tests (four businesses, plain text and mail exports, English
 * and German) and the bundled example. Lines are built as they are read, so a history of a million
 * messages never sits in memory.
 */
import type { RecordsDefinition } from "formletter";
import { historyCorpus, historyRecords } from "../../examples/data/history-corpus.js";
import { type DomainName, generateCorpus } from "../../test/fixtures/corpora/corpus.js";

/** One message as the benchmark reads it. */
export interface LabelledMessage {
  /** The JSON line `mineHistory` reads. */
  readonly json: string;
  /** The message text with white space collapsed: what the Drain baseline reads. */
  readonly text: string;
  /** The template that produced it; undefined for a free-form message. */
  readonly template: string | undefined;
  /** No template could have sent it: free-form, or to a recipient no record holds. */
  readonly escalates: boolean;
}

export interface LabelledHistory {
  readonly name: string;
  readonly records: RecordsDefinition;
  readonly messages: () => Generator<LabelledMessage>;
}

export type CorpusStyle = "plain" | "mail";

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/** A generated corpus of `domain` in `style`, English and German tickets mixed. */
export function messageCorpus(
  domain: DomainName,
  style: CorpusStyle,
  seed: number,
  messages: number,
): LabelledHistory {
  const corpus = generateCorpus({ domain, style, seed, messages, languages: ["en", "de"] });
  return {
    name: `${domain} ${style}`,
    records: corpus.records as unknown as RecordsDefinition,
    *messages() {
      for (const { line, template, newRecipient } of corpus.lines())
        yield {
          json: JSON.stringify(line),
          text: collapse(line.message.text),
          template,
          escalates: template === undefined || newRecipient,
        };
    },
  };
}

/** The bundled example history (examples/data/history-corpus.ts). */
export function exampleHistory(seed: number, messages: number): LabelledHistory {
  return {
    name: "bundled example",
    records: historyRecords as unknown as RecordsDefinition,
    *messages() {
      for (const { line, template, newAddress } of historyCorpus({ messages, seed })) {
        const message = line.message as { readonly text: string };
        yield {
          json: JSON.stringify(line),
          text: collapse(message.text),
          template,
          escalates: template === undefined || newAddress,
        };
      }
    },
  };
}

/** The i-th corpus of a rotation through every domain and both styles. */
export function rotatedCorpus(
  domains: readonly DomainName[],
  index: number,
  seed: number,
  messages: number,
): LabelledHistory {
  const domain = domains[index % domains.length] as DomainName;
  const style: CorpusStyle = Math.floor(index / domains.length) % 2 === 0 ? "plain" : "mail";
  return messageCorpus(domain, style, seed, messages);
}
