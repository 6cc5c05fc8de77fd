import { type ClusterState, wordCounts } from "./clusters.js";
import type { IdentifierKind } from "./literal-identifiers.js";
import { isTypoOf, numberToken, wordKey } from "./tokens.js";

/**
 * An identifier seen in history and left out of the skeleton (and so of any draft): no record of the
 * members' tickets held it, so it could only have become text sent to every recipient unscanned.
 */
export interface IdentifierLeftOut {
  readonly kind: IdentifierKind;
  /**
   * The identifier defanged (`hxxps[:]//acme[.]example`, `help(@)acme[.]example`; an id only by its
   * ends), never as written; "(others)" for those counted past the distinct ones a cluster keeps.
   */
  readonly text: string;
  /** Members that held it. */
  readonly count: number;
}

/** A cluster of past messages read as a template someone could write. */
export interface CandidateTemplate {
  /** The cluster's number, as given to `onMessage` when its first member was read. */
  readonly id: number;
  /**
   * The numbers of the clusters merged into this one once the history was read (its own `id` first):
   * a message `onMessage` gave one of them is a member of this candidate.
   */
  readonly clusters: readonly number[];
  /** Messages in the cluster. */
  readonly size: number;
  /**
   * A member's skeleton with every word most members do not share written as "…": the fixed text and
   * the placeholders. Never a record value (those were masked) nor a word only a few messages hold.
   */
  readonly skeleton: string;
  /** Placeholders most members hold: the slots a template would need. */
  readonly slots: readonly string[];
  /** Words that vary between members but recur: candidates for a `slot.choice`. */
  readonly choiceWords: readonly { readonly word: string; readonly count: number }[];
  /** Share of the members' words that are neither shared, slots nor recurring: what would need free text. */
  readonly residue: number;
  /** Members whose recipient is in their ticket's records. */
  readonly recipientsResolved: number;
  /**
   * Where most of those recipients were found, as `collection.field` (`seller.email`) with the channel
   * that address is for; undefined when no member's recipient was found.
   */
  readonly recipient: { readonly source: string; readonly channel: "email" | "sms" } | undefined;
  /** A few members' skeletons as read: record values masked, every other word as written. */
  readonly examples: readonly string[];
  /**
   * Big enough, with little enough residue, and sent to a recipient the records hold: what could be
   * written as a template.
   */
  readonly templatable: boolean;
  /**
   * Why a cluster is not templatable: fewer messages than `minSize` (or, in `mineHistory`, than its
   * `minShare` of the history), more residue than `maxResidue`, or
   * no member's recipient in the records (a template finds its recipient only there); undefined when it is.
   */
  readonly notTemplatable: "too-few-messages" | "too-much-residue" | "recipient-not-in-records" | undefined;
  /** Identifiers seen in the members' history and left out, most frequent first (at most 10). */
  readonly identifiersLeftOut: readonly IdentifierLeftOut[];
}

/** Options of {@link candidateOf}. */
export interface CandidateOptions {
  /** Fewest members of a cluster worth a template. @default 3 */
  readonly minSize?: number;
  /** Most residue a cluster may have to be templatable. @default 0.25 */
  readonly maxResidue?: number;
}

const fixedShare = 0.6;
/** Fewest of a cluster's members a word that varied is written in to be offered as a choice. */
const choiceShare = 0.08;
const slotShare = 0.5;
const maxChoiceWords = 12;
const maxIdentifiersListed = 10;

/** Reads a cluster as a candidate template. */
export function candidateOf(
  cluster: ClusterState,
  options: CandidateOptions = {},
  boilerplate: ReadonlySet<string> = new Set(),
): CandidateTemplate {
  const minSize = options.minSize ?? 3;
  const maxResidue = options.maxResidue ?? 0.25;
  const { size } = cluster;
  const words = wordCounts(cluster);
  const fixed = new Set<string>();
  const choiceWords: { word: string; count: number }[] = [];
  let total = 0;
  let residueCount = 0;
  const varied: { word: string; count: number }[] = [];
  for (const [word, count] of words) {
    total += count;
    if (size >= 2 && count >= fixedShare * size) fixed.add(word);
    else if (boilerplate.has(word)) continue;
    else if (count >= Math.max(2, choiceShare * size) && !word.startsWith("{{") && word !== numberToken)
      varied.push({ word, count });
    else residueCount += count;
  }
  // A shared word mistyped recurs in a big cluster too: it is the word, not a choice.
  for (const entry of varied) {
    if ([...fixed].some((word) => isTypoOf(entry.word, word))) residueCount += entry.count;
    else choiceWords.push(entry);
  }
  choiceWords.sort((a, b) => b.count - a.count || (a.word < b.word ? -1 : 1));
  const slots = [...words]
    .filter(([word, count]) => word.startsWith("{{") && count >= slotShare * size)
    .map(([word]) => word)
    .sort();
  const residue = total === 0 ? 0 : residueCount / total;
  const recipient = mostFrequentRecipient(cluster.recipients);
  const notTemplatable =
    size < minSize
      ? "too-few-messages"
      : residue > maxResidue
        ? "too-much-residue"
        : recipient === undefined
          ? "recipient-not-in-records"
          : undefined;
  return {
    id: cluster.id,
    clusters: [...cluster.merged],
    size,
    skeleton: size >= 2 ? display(cluster.examples, fixed) : "",
    slots,
    choiceWords: choiceWords.slice(0, maxChoiceWords),
    residue,
    recipientsResolved: cluster.resolved,
    recipient,
    examples: [...cluster.examples],
    templatable: notTemplatable === undefined,
    notTemplatable,
    identifiersLeftOut: [...cluster.identifiers.values()]
      .sort((a, b) => b.count - a.count || (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0))
      .slice(0, maxIdentifiersListed)
      .map(({ kind, shown, count }) => ({ kind, text: shown, count })),
  };
}

/** The example that holds the most shared words, with every other word made "…". */
function display(examples: readonly string[], fixed: ReadonlySet<string>): string {
  let best = "";
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const example of examples) {
    let score = 0;
    // Read chunk by chunk: a word that is not shown takes the signs written with it ("+1", "€5"), so no
    // stray sign of a value is left as text; a sentence's own punctuation after it stays.
    const shown = example.replace(/\S+/gu, (chunk) => {
      let hidden = false;
      chunk.replace(/\{\{[a-z_][\w.]*\}\}|[\p{L}\p{N}]+/giu, (word) => {
        // A number is never shown: one too short to be masked may still be a record's value.
        const kept = !/\p{N}/u.test(word) && fixed.has(wordKey(word));
        score += kept ? 1 : -1;
        if (!kept) hidden = true;
        return word;
      });
      if (!hidden) return chunk;
      return `…${/[.,;:!?]+$/u.exec(chunk)?.[0] ?? ""}`;
    });
    if (score > bestScore) {
      bestScore = score;
      best = shown.replace(/…(?:[^\p{L}\p{N}{]*…)+/gu, "…");
    }
  }
  return best;
}

/** The most frequent recipient source; keys are `email:collection.field` or `sms:collection.field`. */
function mostFrequentRecipient(
  recipients: ReadonlyMap<string, number>,
): { source: string; channel: "email" | "sms" } | undefined {
  let best: [string, number] | undefined;
  for (const entry of recipients) {
    if (best === undefined || entry[1] > best[1] || (entry[1] === best[1] && entry[0] < best[0]))
      best = entry;
  }
  if (best === undefined) return undefined;
  const [channel, source] = best[0].split(":", 2) as ["email" | "sms", string];
  return { source, channel };
}
