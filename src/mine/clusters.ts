import type { IdentifierSeen } from "./history-identifiers.js";
import type { IdentifierKind } from "./literal-identifiers.js";
import { SignatureIndex, signature, similarity } from "./minhash.js";

/** Options of {@link Clusters}. */
export interface ClusterOptions {
  /** Estimated Jaccard similarity of word sets above which a skeleton joins a cluster. @default 0.5 */
  readonly threshold?: number;
  /** Example skeletons kept per cluster. @default 5 */
  readonly examples?: number;
  /** Distinct words counted per cluster; more are residue. @default 2000 */
  readonly vocabulary?: number;
}

/** What one cluster learned from its members. */
export interface ClusterState {
  readonly id: number;
  size: number;
  /** Members whose recipient was found in their ticket's records. */
  resolved: number;
  /** Where those recipients came from (`seller.email`), with how many members each. */
  readonly recipients: Map<string, number>;
  /** Signatures of members unlike the others: a message like any of them joins. */
  readonly signatures: Uint32Array[];
  /** In how many members each word or placeholder appears. */
  readonly words: Map<string, number>;
  readonly examples: string[];
  /**
   * Identifiers members held that no record holds, left out of their skeletons: by kind and shown form
   * (defanged), with how many members held each. Bounded: past {@link maxIdentifiers} distinct ones, a
   * new one is counted under its kind's {@link othersShown}.
   */
  readonly identifiers: Map<string, { readonly kind: IdentifierKind; readonly shown: string; count: number }>;
}

/** Distinct identifiers a cluster keeps by name; the rest are counted by kind. */
export const maxIdentifiers = 32;
/** How the identifiers counted past {@link maxIdentifiers} are shown: no identifier reads so. */
export const othersShown = "(others)";

/** Below this similarity to every kept signature, a joining message is kept as a variant. */
const variantSimilarity = 0.75;
/** Most signatures kept per cluster: memory stays bounded by clusters. */
const maxVariants = 8;

const wordPattern = /\{\{[a-z_][\w.]*\}\}|[\p{L}\p{N}]+/giu;

/** The words (lower-cased) and placeholders (as declared) of a skeleton, in order. */
export function tokensOf(skeleton: string): string[] {
  return (skeleton.match(wordPattern) ?? []).map(wordKey);
}

/** How a word is compared: placeholders as declared, other words lower-cased. */
export function wordKey(word: string): string {
  return word.startsWith("{{") ? word : word.toLowerCase();
}

/**
 * Incremental clustering of skeletons: each joins the most similar cluster found through the MinHash
 * index, or starts one. Time is linear in the messages; memory grows with clusters, not messages.
 */
export class Clusters {
  readonly all: ClusterState[] = [];
  private readonly index = new SignatureIndex<ClusterState>();
  private readonly threshold: number;
  private readonly keep: number;
  private readonly vocabulary: number;

  constructor(options: ClusterOptions = {}) {
    this.threshold = options.threshold ?? 0.5;
    this.keep = options.examples ?? 5;
    this.vocabulary = options.vocabulary ?? 2000;
  }

  /** Adds a skeleton; `recipient` is where its recipient was found in the records, if anywhere. */
  add(skeleton: string, recipient: string | undefined): ClusterState {
    const sequence = tokensOf(skeleton);
    const words = new Set(sequence);
    // Word pairs too: the same words in another order or sense are a different template.
    const shingles = new Set(words);
    for (let i = 1; i < sequence.length; i++) shingles.add(`${sequence[i - 1]} ${sequence[i]}`);
    const of = signature(shingles);
    let best: ClusterState | undefined;
    let bestSimilarity = this.threshold;
    for (const candidate of this.index.candidates(of)) {
      for (const known of candidate.signatures) {
        const score = similarity(of, known);
        if (score >= bestSimilarity) {
          best = candidate;
          bestSimilarity = score;
        }
      }
    }
    if (best === undefined) {
      best = {
        id: this.all.length,
        size: 0,
        resolved: 0,
        recipients: new Map(),
        signatures: [of],
        words: new Map(),
        examples: [],
        identifiers: new Map(),
      };
      this.all.push(best);
      this.index.add(of, best);
    } else if (bestSimilarity < variantSimilarity && best.signatures.length < maxVariants) {
      // A variant (another choice, greeting or sign-off): kept, so the next message like it joins too.
      best.signatures.push(of);
      this.index.add(of, best);
    }
    best.size += 1;
    if (recipient !== undefined) {
      best.resolved += 1;
      // Sources are collection.field names of the records definition: a bounded set.
      best.recipients.set(recipient, (best.recipients.get(recipient) ?? 0) + 1);
    }
    for (const word of words) {
      const count = best.words.get(word);
      if (count !== undefined) best.words.set(word, count + 1);
      else if (best.words.size < this.vocabulary) best.words.set(word, 1);
    }
    if (best.examples.length < this.keep) best.examples.push(skeleton);
    return best;
  }
}

/** Counts the identifiers one member held (each once, however often the message wrote it). */
export function noteIdentifiers(cluster: ClusterState, seen: readonly IdentifierSeen[]): void {
  const keys = new Set<string>();
  for (const { kind, shown } of seen) {
    let key = `${kind} ${shown}`;
    if (!cluster.identifiers.has(key) && cluster.identifiers.size >= maxIdentifiers) key = `${kind} `;
    if (keys.has(key)) continue;
    keys.add(key);
    const entry = cluster.identifiers.get(key);
    if (entry !== undefined) entry.count += 1;
    else cluster.identifiers.set(key, { kind, shown: key === `${kind} ` ? othersShown : shown, count: 1 });
  }
}
