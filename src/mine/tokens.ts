/**
 * How mining reads a skeleton: as words (lower-cased), placeholders (as declared) and number-shaped
 * words made one token, so a count, a time or a code another message wrote differently is the same word.
 */

import { interned, tokenId } from "./interned.js";

const placeholderPattern = /\{\{[a-z_][\w.|]*\}\}/gi;
const wordPattern = /\{\{[a-z_][\w.|]*\}\}|[\p{L}\p{N}]+/giu;
/** The token every word holding a digit becomes: a value, never template identity. */
export const numberToken = "<#>";
/** Where a sentence ends, in a sequence of tokens: what tells an optional sentence from a changed one. */
export const sentenceEnd = "§";

/**
 * The tokens of a skeleton, in order. Text is read in chunks between spaces: a chunk written `key=value`
 * gives its key's words and one value token; a chunk holding a digit (a count, a time, an id, an address
 * with a port) or shaped like a path, host or address is one value token, as a log parser reads a line;
 * any other chunk gives its words, and placeholders stay whole.
 * With `sentences`, a {@link sentenceEnd} token follows each chunk that ends a sentence. Tokens are
 * pooled strings (see `interned`), and a chunk read before is not read again.
 */
export function tokensOf(skeleton: string, sentences = false): string[] {
  return datesAsNumbers(chunkTokensOf(skeleton, sentences));
}

/**
 * The tokens of a message's identity with sentence ends (`tokensOf(identity, true)`) and those of its
 * whole skeleton without (`tokensOf(whole)`), the identity read once: the whole is most often the
 * identity itself, or a greeting and a space before it.
 */
export function identityAndWholeTokens(
  identity: string,
  whole: string,
): { readonly identity: string[]; readonly whole: string[] } {
  const read = identityAndWholeReading(identity, whole, false);
  return { identity: read.identity, whole: read.whole };
}

/**
 * A message's tokens with sentence ends (`tokensOf(skeleton, true)`), with each token's id (see
 * `tokenId`; -1 for a sentence end or a token not pooled), read from the chunks read before rather than
 * looked up token by token.
 */
export function sentenceTokensOf(skeleton: string): { readonly tokens: string[]; readonly ids: number[] } {
  const ids: number[] = [];
  return { tokens: datesAsNumbers(chunkTokensOf(skeleton, true, ids), ids), ids };
}

/** {@link identityAndWholeTokens}, with the ids of the identity's tokens as {@link sentenceTokensOf} gives them. */
export function identityAndWholeReading(
  identity: string,
  whole: string,
  withIds = true,
): { readonly identity: string[]; readonly identityIds: number[]; readonly whole: string[] } {
  const identityIds: number[] = [];
  const read = chunkTokensOf(identity, true, withIds ? identityIds : undefined);
  const bare = read.tokens.filter((token) => token !== sentenceEnd);
  const before = whole.length - identity.length;
  let wholeRead: ChunkTokens;
  if (before === 0 && whole === identity) wholeRead = { tokens: bare, names: read.names };
  else if (
    before > 0 &&
    whole.endsWith(identity) &&
    (/\s/.test(whole.charAt(before - 1)) || /^\s/.test(identity))
  ) {
    // Chunks are read between spaces: those of the greeting, then the identity's.
    const greeting = chunkTokensOf(whole.slice(0, before), false);
    for (const token of bare) greeting.tokens.push(token);
    wholeRead = { tokens: greeting.tokens, names: greeting.names || read.names };
  } else wholeRead = chunkTokensOf(whole, false);
  return {
    identity: datesAsNumbers(read, withIds ? identityIds : undefined),
    identityIds,
    whole: datesAsNumbers(wholeRead),
  };
}

/** A skeleton's tokens read chunk by chunk, and whether any is a month or weekday name. */
interface ChunkTokens {
  readonly tokens: string[];
  readonly names: boolean;
}

/**
 * The tokens of a skeleton's chunks, each read alone, before dates are looked for across them; with
 * `ids`, their ids are pushed there, in step.
 */
function chunkTokensOf(skeleton: string, sentences: boolean, ids?: number[]): ChunkTokens {
  const tokens: string[] = [];
  let names = false;
  let parenthesis = false;
  for (const chunk of skeleton.split(/\s+/)) {
    if (chunk === "") continue;
    const read = chunkReading(chunk);
    if (read.names) names = true;
    // A parenthesis is a clause of its own: left out or added whole, like a sentence.
    if (sentences && read.opens) {
      endSentence(tokens, ids);
      parenthesis = true;
    }
    for (const token of read.tokens) tokens.push(token);
    if (ids !== undefined) for (const id of read.ids) ids.push(id);
    if (!sentences || read.dayNumber) continue;
    if (read.endsSentence || (parenthesis && read.closes)) {
      endSentence(tokens, ids);
      parenthesis = false;
    }
  }
  return { tokens, names };
}

/** Ends the sentence read so far, unless none was begun since the last end. */
function endSentence(tokens: string[], ids: number[] | undefined): void {
  if (tokens.length === 0 || tokens[tokens.length - 1] === sentenceEnd) return;
  tokens.push(sentenceEnd);
  ids?.push(-1);
}

/** What one chunk of a skeleton gives, whatever chunks are around it. */
interface ChunkReading {
  readonly tokens: readonly string[];
  /** Its tokens' ids (see `tokenId`). */
  readonly ids: readonly number[];
  /** One of its tokens is a month or weekday name (see {@link datesAsNumbers}). */
  readonly names: boolean;
  /** It opens a parenthesis. */
  readonly opens: boolean;
  /** "18." before a month name is a day (German writes dates so), not a sentence's end. */
  readonly dayNumber: boolean;
  readonly endsSentence: boolean;
  /** It closes a parenthesis. */
  readonly closes: boolean;
}

/**
 * Chunks already read: a history writes the same few thousand words and placeholders again and again.
 * At most {@link maxChunksRead} of them, none longer than {@link longestChunkRead}. A chunk as long as
 * the engine's shortest slice of a string would hold the whole text it was cut from, so such a chunk is
 * kept as a copy of its own.
 */
const chunksRead = new Map<string, ChunkReading>();
const maxChunksRead = 1 << 15;
const shortChunk = 13;
const longestChunkRead = 64;

function chunkReading(chunk: string): ChunkReading {
  const known = chunksRead.get(chunk);
  if (known !== undefined) return known;
  const kept = chunk.length < shortChunk ? chunk : ownCopy(chunk);
  const tokens = interned(chunkTokens(kept));
  const read: ChunkReading = {
    tokens,
    ids: tokens.map(tokenId),
    names: tokens.some((token) => dateWords().has(token)),
    opens: kept.startsWith("("),
    dayNumber: /^\p{N}{1,2}\.$/u.test(kept),
    endsSentence: /[.!?;:]["')\]]*$/.test(kept),
    closes: /\)\W*$/.test(kept),
  };
  if (kept.length <= longestChunkRead && chunksRead.size < maxChunksRead) chunksRead.set(kept, read);
  return read;
}

/** A string of the same text that is no slice of another: joined anew from its characters. */
function ownCopy(text: string): string {
  return text.length > longestChunkRead ? text : [...text].join("");
}

/** The tokens of one chunk between spaces. */
function chunkTokens(chunk: string): string[] {
  const tokens: string[] = [];
  const setting = chunk.includes("=") && !chunk.includes("{{") ? keyValueOf(chunk) : undefined;
  if (setting !== undefined) {
    for (const word of setting.key.match(wordPattern) ?? []) tokens.push(word.toLowerCase());
    if (setting.value) tokens.push(numberToken);
  } else if (chunk.includes("{{")) {
    for (const word of chunk.match(wordPattern) ?? []) tokens.push(wordKey(word));
  } else if (/\p{N}/u.test(chunk) || isAddressShaped(chunk)) tokens.push(numberToken);
  else for (const word of chunk.match(wordPattern) ?? []) tokens.push(word.toLowerCase());
  return tokens;
}

/**
 * Month and weekday names written beside a number ("Fri Jun 17", "3 March") become number tokens: they
 * are a date's value, as its digits are, wherever masking did not take it. A name alone ("may",
 * "sun") stays a word. Tokens holding no name are given back as they are, unread; `ids`, the tokens'
 * ids, change with them.
 */
function datesAsNumbers({ tokens, names }: ChunkTokens, ids?: number[]): string[] {
  if (!names) return tokens;
  const dates = dateWords();
  for (let at = 0; at < tokens.length; at++) {
    if (!dates.has(tokens[at] as string)) continue;
    // A run of names ("fri jun") beside a number is a date as a whole.
    let end = at;
    while (end + 1 < tokens.length && dates.has(tokens[end + 1] as string)) end++;
    if (tokens[at - 1] === numberToken || tokens[end + 1] === numberToken)
      for (let name = at; name <= end; name++) {
        tokens[name] = numberToken;
        if (ids !== undefined) ids[name] = tokenId(numberToken);
      }
    at = end;
  }
  return tokens;
}

/** The languages whose month and weekday names are read as dates beside a number. */
const dateLanguages = ["en", "de", "fr", "es", "it", "nl", "pt"];
let names: ReadonlySet<string> | undefined;

/** Month and weekday names, long and short (with and without a dot), lower-cased, from Intl's data. */
function dateWords(): ReadonlySet<string> {
  if (names !== undefined) return names;
  const found = new Set<string>();
  const add = (word: string) => {
    for (const part of word.toLowerCase().match(/\p{L}+/gu) ?? []) if (part.length >= 3) found.add(part);
  };
  for (const language of dateLanguages) {
    for (const month of ["long", "short"] as const) {
      const format = new Intl.DateTimeFormat(language, { month, timeZone: "UTC" });
      for (let at = 0; at < 12; at++) add(format.format(Date.UTC(2001, at, 15)));
    }
    for (const weekday of ["long", "short"] as const) {
      const format = new Intl.DateTimeFormat(language, { weekday, timeZone: "UTC" });
      // 2001-01-01 was a Monday.
      for (let at = 0; at < 7; at++) add(format.format(Date.UTC(2001, 0, 1 + at)));
    }
  }
  names = found;
  return names;
}

/**
 * A chunk written `key=value` (`uid=0`, `rhost=example.org`, `user=root`, `(uid=0)`): its key, and
 * whether a value follows the sign. The value is read as one value token, whatever it is: a number in
 * one line, a host or a name in the next, it is never what tells two messages apart, while the key is.
 */
function keyValueOf(chunk: string): { readonly key: string; readonly value: boolean } | undefined {
  const found = /^[^\p{L}\p{N}]*(\p{L}[\p{L}\p{N}_.-]*)=(?!=)(.*)$/u.exec(chunk);
  if (found === null) return undefined;
  return { key: found[1] as string, value: /[\p{L}\p{N}]/u.test(found[2] as string) };
}

/** A path, a host with two dots or more, or an address: what a record value or a log's variable reads like. */
function isAddressShaped(chunk: string): boolean {
  const bare = chunk.replace(placeholderPattern, "");
  return /\p{L}[/\\]\p{L}|^[/\\]\p{L}|@\p{L}|\p{L}\.\p{L}+\.\p{L}/u.test(bare);
}

/** How a word is compared: placeholders as declared, words with a digit as one token, others lower-cased. */
export function wordKey(word: string): string {
  if (word.startsWith("{{")) return word;
  return /\p{N}/u.test(word) ? numberToken : word.toLowerCase();
}

/** Whether a token stands for a record value: a placeholder. */
export function isPlaceholder(token: string): boolean {
  return token.startsWith("{{");
}

/**
 * Whether two words are one word mistyped: at most one letter inserted, dropped, replaced, or two
 * neighbours swapped, in words of five letters or more (shorter words differ in meaning by one letter).
 */
export function isTypoOf(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < 5 || b.length < 5 || Math.abs(a.length - b.length) > 1) return false;
  if (isPlaceholder(a) || isPlaceholder(b)) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const restA = endA - start;
  const restB = endB - start;
  if (restA <= 1 && restB <= 1) return true;
  // Two neighbours swapped: "recieve" / "receive".
  return restA === 2 && restB === 2 && a[start] === b[start + 1] && a[start + 1] === b[start];
}
