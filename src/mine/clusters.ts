import { merged } from "../core/merged.js";
import { otherTemplate } from "./alternations.js";
import type { IdentifierSeen } from "./history-identifiers.js";
import { pairId, pairOf, pairText } from "./interned.js";
import { joinThreshold } from "./join-threshold.js";
import type { IdentifierKind } from "./literal-identifiers.js";
import { SignatureIndex, signature, similarity } from "./minhash.js";
import { identityAndWholeReading, sentenceEnd, sentenceTokensOf, tokensOf } from "./tokens.js";

/** What a message adds to a cluster besides its skeleton. */
export interface MessageMore {
  /** The words it is compared by, when other than all of its own. */
  readonly identity?: string;
  readonly subject?: string;
  /** Identifiers it held that no record holds (see `noteIdentifiers`). */
  readonly identifiers?: readonly IdentifierSeen[];
  /** The caller's number for the message, given back if it moves to another cluster while read. */
  readonly tag?: number;
}

/**
 * A member of a young cluster, as little as counts it again: its words and pairs are read again from
 * its tokens, so a cluster of one free-form message keeps no more than its tokens.
 */
interface Member {
  readonly skeleton: string;
  readonly recipient: string | undefined;
  readonly withEnds: string[];
  readonly more: MessageMore;
}

/** A message's words and word pairs, as it is compared and counted. */
interface Counted {
  readonly words: ReadonlySet<string>;
  readonly pairs: ReadonlySet<string>;
  /** Its words' ids in the set's order (see `tokenId`), when its tokens' ids were given. */
  readonly wordIds?: readonly number[] | undefined;
  /** All of its skeleton's words, when it is compared by fewer (its identity). */
  readonly wholeWords?: ReadonlySet<string> | undefined;
}

/**
 * A message's words and pairs; with `ids`, its tokens' ids (see `sentenceTokensOf`), its pairs are found
 * by them, and its words' ids are kept.
 */
function countedOf(withEnds: readonly string[], ids?: readonly number[]): Counted {
  // Sentence ends left out, in one pass: a message's words and its pairs of neighbouring words.
  const words = new Set<string>();
  const pairs = new Set<string>();
  const wordIds: number[] | undefined = ids === undefined ? undefined : [];
  let previous: string | undefined;
  let previousId = -1;
  for (let at = 0; at < withEnds.length; at++) {
    const token = withEnds[at] as string;
    if (token === sentenceEnd) continue;
    const id = ids === undefined ? -1 : (ids[at] as number);
    const before = words.size;
    words.add(token);
    if (words.size > before) wordIds?.push(id);
    if (previous !== undefined) {
      const pair = pairId(previousId, id);
      pairs.add(pair < 0 ? pairOf(previous, token) : pairText(pair));
    }
    previous = token;
    previousId = id;
  }
  return { words, pairs, wordIds };
}

/** Options of {@link Clusters}. */
export interface ClusterOptions {
  /**
   * Share of words a skeleton and a cluster's shared words must have in common (Dice) for the skeleton
   * to join the cluster as it is read; clusters of one template split here are merged at the end.
   * @default 0.6
   */
  readonly threshold?: number;
  /** Example skeletons kept per cluster. @default 5 */
  readonly examples?: number;
  /** Distinct words counted per cluster; more are residue. @default 2000 */
  readonly vocabulary?: number;
  /**
   * Messages read after which a cluster still of one member keeps no counts of its own: they are read
   * again from its member when needed, with the same result. Most clusters of a long history are one-off
   * messages, so this bounds what each costs; at 0 a new cluster keeps none from the start (its member's
   * words and pairs are not counted into maps only to be dropped), the member's text going at the next
   * message. @default 0
   */
  readonly idleAfter?: number;
}

/** What one cluster learned from its members. */
export interface ClusterState {
  readonly id: number;
  size: number;
  /** Members whose recipient was found in their ticket's records. */
  resolved: number;
  /** Where those recipients came from (`seller.email`), with how many members each. */
  readonly recipients: Map<string, number>;
  /** Signatures of members unlike the others: a message like any of them is compared with the cluster. */
  readonly signatures: Uint32Array[];
  /**
   * In how many members each word or placeholder appears; while counts are dropped (see `recount`), one
   * empty map shared by such clusters, replaced by {@link restoreCounts}.
   */
  words: Map<string, number>;
  /**
   * In how many members each pair of neighbouring words appears: messages of one template share their
   * words in order, while messages that only share a vocabulary do not.
   */
  pairs: Map<string, number>;
  readonly examples: string[];
  /** The tokens a few members are compared by, in order: what merging aligns. */
  readonly sequences: string[][];
  /** A few members' subjects, masked as their texts are. */
  readonly subjects: string[];
  /**
   * Identifiers members held that no record holds, left out of their skeletons: by kind and shown form
   * (defanged), with how many members held each. Bounded: past {@link maxIdentifiers} distinct ones, a
   * new one is counted under its kind's {@link othersShown}.
   */
  readonly identifiers: Map<string, { readonly kind: IdentifierKind; readonly shown: string; count: number }>;
  /** The ids of the clusters merged into this one at the end of the reading, its own first. */
  readonly merged: number[];
  /**
   * Set while a cluster of one member, new or idle for long (see `idleAfter`), keeps no counts of its own
   * (most clusters of a history are such: messages no other resembles): its words are read again from
   * its skeleton or its tokens, its pairs from its tokens (see {@link wordCounts}).
   */
  recount?: "skeleton" | "tokens" | undefined;
  /**
   * While its counts are dropped, the member's distinct words in the order first written (read once
   * from its skeleton or tokens when they were dropped), and whether its word pairs are all distinct:
   * what comparing a message with it needs, far smaller than the counts.
   */
  oneMember?: { readonly words: readonly string[]; readonly distinctPairs: boolean } | undefined;
}

/**
 * What a cluster whose counts were dropped holds in their place: one empty map for them all (most
 * clusters of a history are such), which refuses to be written.
 */
class NoCounts extends Map<string, number> {
  override set(): this {
    throw new Error("A cluster's dropped counts are given back (restoreCounts) before they change.");
  }
}
const noCounts: Map<string, number> = new NoCounts();

/** A cluster's words with the number of members holding each, read again from its member if dropped. */
export function wordCounts(cluster: ClusterState): ReadonlyMap<string, number> {
  if (cluster.recount === undefined) return cluster.words;
  return new Map(memberWords(cluster).map((word) => [word, 1]));
}

/** The distinct words of a cluster of one member whose counts were dropped, in the order first written. */
function memberWords(cluster: ClusterState): readonly string[] {
  if (cluster.oneMember !== undefined) return cluster.oneMember.words;
  const skeleton = cluster.examples[0] ?? "";
  const tokens =
    cluster.recount === "skeleton" ? tokensOf(skeleton) : withoutEnds(cluster.sequences[0] ?? []);
  return [...new Set(tokens)];
}

/** A cluster's word pairs with the number of members holding each, read again if dropped. */
export function pairCounts(cluster: ClusterState): ReadonlyMap<string, number> {
  if (cluster.recount === undefined) return cluster.pairs;
  return new Map([...pairsOf(withoutEnds(cluster.sequences[0] ?? []))].map((pair) => [pair, 1]));
}

/**
 * The words of a cluster whose counts were dropped, each once in the order its counts would list them;
 * undefined for a cluster that keeps its counts. Read without making the map {@link wordCounts} makes: a
 * merge reads every such cluster, and they are most of a long history's.
 */
export function droppedWords(cluster: ClusterState): readonly string[] | undefined {
  return cluster.recount === undefined ? undefined : memberWords(cluster);
}

/**
 * The word pairs of a cluster whose counts were dropped, each once in the order its counts would list
 * them and followed by its two words (pair, first, second, …), made without the map {@link pairCounts}
 * makes; only those whose two words `keep` lets through, when given (a pair left out is never made).
 */
export function droppedPairs(
  cluster: ClusterState,
  keep?: (first: string, second: string) => boolean,
): string[] {
  const tokens = withoutEnds(cluster.sequences[0] ?? []);
  const pairs: string[] = [];
  // Most one-off messages write no pair twice: then none is looked for among those before.
  const seen = cluster.oneMember?.distinctPairs === true ? undefined : new Set<string>();
  for (let at = 1; at < tokens.length; at++) {
    const [first, second] = [tokens[at - 1] as string, tokens[at] as string];
    if (keep !== undefined && !keep(first, second)) continue;
    const pair = pairOf(first, second);
    if (seen !== undefined) {
      if (seen.has(pair)) continue;
      seen.add(pair);
    }
    pairs.push(pair, first, second);
  }
  return pairs;
}

/** Gives a cluster whose counts were dropped its counts again, before they change. */
export function restoreCounts(cluster: ClusterState): void {
  if (cluster.recount === undefined) return;
  const [words, pairs] = [wordCounts(cluster), pairCounts(cluster)];
  cluster.recount = undefined;
  cluster.oneMember = undefined;
  cluster.words = new Map(words);
  cluster.pairs = new Map(pairs);
}

const withoutEnds = (tokens: readonly string[]) => tokens.filter((token) => token !== sentenceEnd);

/** Distinct identifiers a cluster keeps by name; the rest are counted by kind. */
export const maxIdentifiers = 32;
/** How the identifiers counted past {@link maxIdentifiers} are shown: no identifier reads so. */
export const othersShown = "(others)";

/** Below this estimated similarity to every kept signature, a joining message is kept as a variant. */
const variantSimilarity = 0.75;
/** Most signatures kept per cluster: memory stays bounded by clusters. */
const maxVariants = 8;
/** Most candidate clusters scored for one message: the index ranks the near ones first. */
const maxScored = 6;

/**
 * A cluster's members are kept until it has this many, and looked at when it reaches each of
 * {@link lookedAt} for two templates read as one (see `otherTemplate`); past it, only counts are kept.
 */
const youngSize = 31;
const lookedAt = new Set([16, youngSize]);

/** Every so many messages, clusters idle for `idleAfter` messages are looked at. */
const idleCheckEvery = 256;

/** Token sequences kept per cluster. */
export const maxSequences = 3;

/** A word is shared by a cluster when at least this share of its members hold it. */
export const sharedShare = 0.5;

/**
 * Reading a history's skeletons into clusters, one message at a time: each joins the cluster whose
 * shared words it holds most of (found through a MinHash index, so a message is compared only with
 * clusters likely to be near it), or starts one. Strict on purpose: a wrong join cannot be undone,
 * while clusters of one template split by a greeting, a sign-off or an optional sentence are merged
 * once every message has been read (see `mergeClusters`). Time is linear in the messages; memory grows
 * with clusters, not messages.
 */
export class Clusters {
  readonly all: ClusterState[] = [];
  /** Undefined once {@link finish} let the reading's state go. */
  private index: SignatureIndex<ClusterState> | undefined = new SignatureIndex<ClusterState>();
  private readonly threshold: number;
  private readonly keep: number;
  private readonly vocabulary: number;
  private readonly idleAfter: number;
  /** Per cluster (by id), how many of its words and pairs each member count has, and how many are shared. */
  private readonly tallies: Tally[] = [];
  /** The members of clusters of at most {@link youngSize}, by cluster id. */
  private readonly young = new Map<number, Member[]>();
  /** Messages read so far, and when each cluster (by id) was made. */
  private read = 0;
  private readonly madeAt: number[] = [];
  /** Clusters below this id were looked at for dropping their counts. */
  private idleChecked = 0;

  /**
   * `moved` is told of each message (by its `tag`) that moved to another cluster after it was added:
   * a young cluster found to hold two templates gives one of them a cluster of its own.
   */
  constructor(
    options: ClusterOptions = {},
    private readonly moved?: (tag: number, cluster: ClusterState) => void,
  ) {
    this.threshold = options.threshold ?? 0.7;
    this.keep = options.examples ?? 5;
    this.vocabulary = options.vocabulary ?? 2000;
    this.idleAfter = options.idleAfter ?? 0;
  }

  /**
   * Adds a skeleton; `recipient` is where its recipient was found in the records, if anywhere, and
   * `identity` the words it is compared by when other than all of its own (a mail's greeting and
   * closing are not what a message is about).
   */
  add(skeleton: string, recipient: string | undefined, more: MessageMore = {}): ClusterState {
    const index = this.index;
    if (index === undefined)
      throw new Error("Clusters.add: the reading was finished (finish()); make a new Clusters to read more.");
    this.read += 1;
    if (this.read % Math.min(idleCheckEvery, Math.max(1, this.idleAfter)) === 0) this.dropIdleCounts();
    // Pooled tokens (see `tokensOf`); a message compared by its identity is counted by all its words.
    const read = more.identity === undefined ? undefined : identityAndWholeReading(more.identity, skeleton);
    const own =
      read === undefined ? sentenceTokensOf(skeleton) : { tokens: read.identity, ids: read.identityIds };
    const withEnds = own.tokens;
    const { words, pairs, wordIds } = countedOf(withEnds, own.ids);
    const of = signature(words, wordIds);
    let best: ClusterState | undefined;
    let bestScore = joinThreshold(this.threshold, more.identity ?? skeleton, words, pairs);
    for (const candidate of index.candidates(of, maxScored)) {
      const score = this.score(words, pairs, candidate, bestScore);
      if (score >= bestScore) {
        best = candidate;
        bestScore = score;
      }
    }
    if (best === undefined) {
      best = newCluster(this.all.length, of);
      this.all.push(best);
      this.madeAt.push(this.read);
      this.tallies.push({ byCount: [], shared: 0 });
      index.add(of, best);
    } else if (
      best.signatures.length < maxVariants &&
      best.signatures.every((kept) => similarity(of, kept) < variantSimilarity)
    ) {
      // A variant (another choice, greeting or sign-off): kept, so the next message like it is found too.
      best.signatures.push(of);
      index.add(of, best);
    }
    const member: Member = { skeleton, recipient, withEnds, more };
    const started = best.size === 0;
    (this.tallies[best.id] as Tally).memberPairs = undefined;
    restoreCounts(best);
    this.join(
      best,
      member,
      { words, pairs, wholeWords: read === undefined ? undefined : new Set(read.whole) },
      started && this.idleAfter <= 0,
    );
    const members = this.young.get(best.id) ?? [];
    if (best.size <= youngSize) {
      members.push(member);
      this.young.set(best.id, members);
    }
    if (lookedAt.has(best.size)) {
      const other = this.split(best, members, index);
      if (other !== undefined) {
        this.young.set(other.cluster.id, other.leaving);
        this.young.set(best.id, other.staying);
        if (other.leaving.includes(member)) return other.cluster;
      }
    }
    if (best.size >= youngSize) this.young.delete(best.id);
    return best;
  }

  /**
   * The clusters, once every message is read. What only reading more needs (the index, the members of
   * young clusters, the tallies) is let go, so the merge that follows does not hold it beside its own.
   */
  finish(): ClusterState[] {
    this.index = undefined;
    this.young.clear();
    this.tallies.length = 0;
    this.madeAt.length = 0;
    return this.all;
  }

  /**
   * Looks at a cluster come of age for a second template read into it; if there is one, its members
   * leave for a cluster of their own (counted again from what they were) and the caller is told.
   */
  private split(
    cluster: ClusterState,
    members: readonly Member[],
    index: SignatureIndex<ClusterState>,
  ): { cluster: ClusterState; leaving: Member[]; staying: Member[] } | undefined {
    const leaves = otherTemplate(members.map((member) => member.withEnds));
    if (leaves === undefined) return undefined;
    const leaving = members.filter((_, at) => leaves[at]);
    const staying = members.filter((_, at) => !leaves[at]);
    reset(cluster);
    this.tallies[cluster.id] = { byCount: [], shared: 0 };
    for (const member of staying) this.join(cluster, member);
    const of = signature(countedOf((leaving[0] as Member).withEnds).words);
    const other = newCluster(this.all.length, of);
    this.all.push(other);
    this.madeAt.push(this.read);
    this.tallies.push({ byCount: [], shared: 0 });
    index.add(of, other);
    for (const member of leaving) {
      this.join(other, member);
      if (member.more.tag !== undefined) this.moved?.(member.more.tag, other);
    }
    return { cluster: other, leaving, staying };
  }

  /**
   * Counts a message as a member of a cluster; with `compact`, the first member of a new cluster, which
   * then keeps no counts (see {@link ClusterState.recount}) unless they would reach the vocabulary.
   */
  private join(
    cluster: ClusterState,
    member: Member,
    counted: Counted = countedOf(member.withEnds),
    compact = false,
  ): void {
    const { skeleton, recipient, withEnds, more } = member;
    const { words, pairs } = counted;
    const tally = this.tallies[cluster.id] as Tally;
    // Counted against the share before this member, then the share rises with the size.
    const before = Math.ceil(sharedShare * cluster.size);
    const whole = more.identity === undefined ? words : (counted.wholeWords ?? new Set(tokensOf(skeleton)));
    if (compact && whole.size < this.vocabulary && pairs.size < this.vocabulary) {
      // As counting them would leave the tally: each item held by the one member, so shared.
      tally.byCount[1] = whole.size + pairs.size;
      tally.shared = whole.size + pairs.size;
      dropCounts(cluster, member, [...whole], pairs.size);
      tally.memberPairs = [...pairs];
    } else {
      count(cluster.words, whole, this.vocabulary, tally, before);
      count(cluster.pairs, pairs, this.vocabulary, tally, before);
    }
    cluster.size += 1;
    const after = Math.ceil(sharedShare * cluster.size);
    for (let at = before; at < after; at++) tally.shared -= tally.byCount[at] ?? 0;
    if (recipient !== undefined) {
      cluster.resolved += 1;
      // Sources are collection.field names of the records definition: a bounded set.
      cluster.recipients.set(recipient, (cluster.recipients.get(recipient) ?? 0) + 1);
    }
    // Every word of the skeleton is counted (a greeting too, which a template may write), while only
    // the identity's are compared.
    if (cluster.examples.length < this.keep) cluster.examples.push(skeleton);
    if (cluster.sequences.length < maxSequences) cluster.sequences.push(withEnds);
    if (more.subject !== undefined && cluster.subjects.length < this.keep)
      cluster.subjects.push(more.subject);
    if (more.identifiers !== undefined && more.identifiers.length > 0)
      noteIdentifiers(cluster, more.identifiers);
  }

  /**
   * Drops the counts of clusters that have kept one member since `idleAfter` messages were read:
   * they are read again from the member when needed, the same counts in the same order.
   */
  private dropIdleCounts(): void {
    for (; this.idleChecked < this.all.length; this.idleChecked++) {
      const cluster = this.all[this.idleChecked] as ClusterState;
      if ((this.madeAt[cluster.id] as number) > this.read - this.idleAfter) break;
      const member = this.young.get(cluster.id)?.[0];
      if (cluster.size !== 1 || member === undefined || cluster.examples[0] !== member.skeleton) continue;
      if (cluster.sequences[0] !== member.withEnds) continue;
      // A cluster that started without counts has none to drop.
      if (cluster.recount === undefined) {
        if (cluster.words.size >= this.vocabulary || cluster.pairs.size >= this.vocabulary) continue;
        (this.tallies[cluster.id] as Tally).memberPairs = [...cluster.pairs.keys()];
        dropCounts(cluster, member, [...cluster.words.keys()], cluster.pairs.size);
      }
      // The words it is compared by are read no more (only whether it had its own is): its text goes.
      if (member.more.identity !== undefined && member.more.identity !== "")
        (this.young.get(cluster.id) as Member[])[0] = {
          skeleton: member.skeleton,
          recipient: member.recipient,
          withEnds: member.withEnds,
          more: merged(member.more, { identity: "" }),
        };
    }
  }

  /**
   * Dice of the message's words and word pairs with those the cluster shares (all of its own while it
   * has one member); 0 as soon as it cannot reach `needed`, since then it cannot be the best.
   */
  private score(
    words: ReadonlySet<string>,
    pairs: ReadonlySet<string>,
    cluster: ClusterState,
    needed: number,
  ): number {
    const floor = sharedShare * cluster.size;
    const shares = (this.tallies[cluster.id] as Tally).shared;
    const total = words.size + pairs.size + shares;
    // Past this many items not shared, the score is below `needed` whatever the rest holds.
    const missable = words.size + pairs.size - (needed * total) / 2;
    // Even holding all of it, the cluster shares too much the message lacks.
    if (missable < 0) return 0;
    // Each item the message holds that the cluster shares is one of its shared items: the message
    // misses at least those it holds beyond them.
    if (words.size + pairs.size - shares > missable) return 0;
    const one = cluster.oneMember;
    if (one !== undefined) {
      // One member whose counts were dropped: what it shares is what the message holds of its words and
      // pairs, read from its own distinct words and pairs rather than from counts built again.
      let shared = 0;
      for (const word of one.words) if (words.has(word)) shared++;
      // The words it misses already cost more than the message may miss: no need to read its pairs.
      if (words.size - shared > missable) return 0;
      for (const pair of (this.tallies[cluster.id] as Tally).memberPairs ?? []) if (pairs.has(pair)) shared++;
      const missed = words.size + pairs.size - shared;
      return missed > missable ? 0 : (2 * (words.size + pairs.size - missed)) / total;
    }
    const [held, heldPairs] = [wordCounts(cluster), pairCounts(cluster)];
    let missed = 0;
    // Pairs first: a message of another template misses more of them than of words, so stops sooner.
    for (const pair of pairs) if ((heldPairs.get(pair) ?? 0) < floor && ++missed > missable) return 0;
    for (const word of words) if ((held.get(word) ?? 0) < floor && ++missed > missable) return 0;
    return (2 * (words.size + pairs.size - missed)) / total;
  }
}

/** The pairs of neighbouring tokens of a sequence. */
function pairsOf(sequence: readonly string[]): Set<string> {
  const pairs = new Set<string>();
  for (let i = 1; i < sequence.length; i++)
    pairs.add(pairOf(sequence[i - 1] as string, sequence[i] as string));
  return pairs;
}

/**
 * How many of a cluster's items (words and pairs) have each member count, and how many have at least
 * the share of members that makes them shared: kept as items are counted, so scoring a message against
 * a cluster never walks the cluster's vocabulary.
 */
interface Tally {
  readonly byCount: number[];
  shared: number;
  /**
   * While its counts are dropped, its one member's distinct word pairs (pooled strings, no more than
   * its tokens' places): what scoring a message against it looks up, with no pair written again.
   */
  memberPairs?: readonly string[] | undefined;
}

/**
 * Counts each item once more, new items only while the map holds fewer than `bound`, and keeps the
 * tally: an item reaching `sharedFrom` members is shared.
 */
function count(
  counts: Map<string, number>,
  items: Iterable<string>,
  bound: number,
  tally: Tally,
  sharedFrom: number,
): void {
  const { byCount } = tally;
  for (const item of items) {
    const known = counts.get(item);
    if (known === undefined && counts.size >= bound) continue;
    const was = known ?? 0;
    counts.set(item, was + 1);
    if (was > 0) byCount[was] = (byCount[was] as number) - 1;
    byCount[was + 1] = (byCount[was + 1] ?? 0) + 1;
    if (was + 1 >= sharedFrom && (was === 0 || was < sharedFrom)) tally.shared += 1;
  }
}

/**
 * Lets a cluster of one member keep no counts: its distinct words (in the order first written, as its
 * counts list them; its tokens, pooled strings already) and whether its `pairs` distinct pairs are all
 * it writes stand in their place.
 */
function dropCounts(cluster: ClusterState, member: Member, words: string[], pairs: number): void {
  cluster.recount = member.more.identity === undefined ? "tokens" : "skeleton";
  cluster.oneMember = {
    words,
    distinctPairs: pairs === Math.max(0, withoutEnds(member.withEnds).length - 1),
  };
  cluster.words = noCounts;
  cluster.pairs = noCounts;
}

/** Forgets a cluster's members, to count them again. */
function reset(cluster: ClusterState): void {
  cluster.size = 0;
  cluster.resolved = 0;
  cluster.recipients.clear();
  cluster.words.clear();
  cluster.pairs.clear();
  cluster.examples.length = 0;
  cluster.sequences.length = 0;
  cluster.subjects.length = 0;
  cluster.identifiers.clear();
}

function newCluster(id: number, of: Uint32Array): ClusterState {
  return {
    id,
    size: 0,
    resolved: 0,
    recipients: new Map(),
    signatures: [of],
    words: new Map(),
    pairs: new Map(),
    examples: [],
    sequences: [],
    subjects: [],
    identifiers: new Map(),
    merged: [id],
  };
}

/** Counts the identifiers one member held (each once, however often the message wrote it). */
export function noteIdentifiers(cluster: ClusterState, seen: readonly IdentifierSeen[]): void {
  const keys = new Set<string>();
  for (const { kind, shown } of seen) {
    const key = addIdentifier(cluster, kind, shown, 0);
    if (keys.has(key)) continue;
    keys.add(key);
    (cluster.identifiers.get(key) as { count: number }).count += 1;
  }
}

/**
 * Adds `count` members holding an identifier to a cluster's list, kept within {@link maxIdentifiers}
 * names (past them, under its kind's {@link othersShown}); returns the key it was counted under.
 */
export function addIdentifier(
  cluster: ClusterState,
  kind: IdentifierKind,
  shown: string,
  count: number,
): string {
  const others = `${kind} `;
  let key = shown === othersShown ? others : `${kind} ${shown}`;
  if (!cluster.identifiers.has(key) && cluster.identifiers.size >= maxIdentifiers) key = others;
  const entry = cluster.identifiers.get(key);
  if (entry !== undefined) entry.count += count;
  else cluster.identifiers.set(key, { kind, shown: key === others ? othersShown : shown, count });
  return key;
}
