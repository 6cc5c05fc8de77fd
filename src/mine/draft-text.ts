import { greetingOf } from "./mail/greeting.js";
import { isTypoOf, wordKey } from "./tokens.js";

/**
 * A drafted text read from a cluster's skeleton: words, the punctuation and spaces between them, tags
 * (a kept ref slot's placeholder) and gaps (what most members did not share, or a value left out).
 */
export type SkeletonPiece =
  | { readonly type: "word"; readonly text: string }
  | { readonly type: "mark"; readonly text: string }
  | { readonly type: "tag"; readonly slot: string; readonly alias: string; readonly path: string }
  | { readonly type: "gap"; readonly path: string | undefined };

/** Where the members' phrases differ while the words around them agree: the pieces it spans, and the phrases. */
export interface VaryingPlace {
  /** First and last piece (inclusive) replaced by the choice. */
  readonly from: number;
  readonly to: number;
  /** The phrases seen there, as the members wrote them (letters and spaces), most frequent first. */
  readonly phrases: readonly string[];
}

// Plain punctuation only: dashes and brackets keep a template's form; quotes, braces and markup never pass.
const safePunctuation = new Set([..." .,;:!?'()-/&%+\u2013\u2014"]);
const placeholder = /^\{\{([a-z_][\w.]*)\}\}/i;
const word = /^[\p{L}\p{N}]+/u;

/** The skeleton read as words, marks, tags and gaps ("…", "⌧" or a placeholder `tag` refuses); other characters are dropped. */
export function readSkeleton(
  skeleton: string,
  tag: (path: string) => { slot: string; alias: string } | undefined,
): SkeletonPiece[] {
  const pieces: SkeletonPiece[] = [];
  let mark = "";
  const flush = () => {
    if (mark !== "") pieces.push({ type: "mark", text: mark });
    mark = "";
  };
  for (let at = 0; at < skeleton.length; ) {
    const rest = skeleton.slice(at, at + 200);
    const placeholderMatch = placeholder.exec(rest);
    if (placeholderMatch !== null) {
      const path = placeholderMatch[1] as string;
      const found = tag(path);
      flush();
      pieces.push(found === undefined ? { type: "gap", path } : { type: "tag", ...found, path });
      at += placeholderMatch[0].length;
      continue;
    }
    const wordMatch = word.exec(rest);
    if (wordMatch !== null) {
      flush();
      pieces.push({ type: "word", text: wordMatch[0] });
      at += wordMatch[0].length;
      continue;
    }
    const char = String.fromCodePoint(skeleton.codePointAt(at) as number);
    at += char.length;
    // "⌧" is where mining took an identifier out: a value was there, as at "…".
    if (char === "…" || char === "⌧") {
      flush();
      pieces.push({ type: "gap", path: undefined });
    } else if (safePunctuation.has(char)) mark += char;
    else if (/\s/u.test(char)) mark += " ";
  }
  flush();
  return pieces;
}

type Token = { readonly key: string; readonly start: number; readonly end: number };

const sentenceKey = "§";

/** An example's words, placeholders and sentence ends, with where each is written. */
function tokensOfExample(example: string): Token[] {
  const out: Token[] = [];
  for (const match of example.matchAll(/\{\{[a-z_][\w.]*\}\}|[\p{L}\p{N}]+|[.!?]+/giu)) {
    const text = match[0];
    const key = /^[.!?]/.test(text) ? sentenceKey : wordKey(text);
    out.push({ key, start: match.index, end: match.index + text.length });
  }
  return out;
}

function same(a: string, b: string): boolean {
  return a === b || (!a.startsWith("{{") && a !== sentenceKey && isTypoOf(a, b));
}

/** For each token of `a`, the index of the token of `b` it is matched with in a longest common subsequence. */
function matchedIn(a: readonly string[], b: readonly Token[]): (number | undefined)[] {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  const length = new Uint16Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const at = i * width + j;
      length[at] = same(a[i] as string, (b[j] as Token).key)
        ? 1 + (length[at + width + 1] as number)
        : Math.max(length[at + width] as number, length[at + 1] as number);
    }
  }
  const out: (number | undefined)[] = new Array(n).fill(undefined);
  for (let i = 0, j = 0; i < n && j < m; ) {
    const at = i * width + j;
    if (same(a[i] as string, (b[j] as Token).key) && length[at] === 1 + (length[at + width + 1] as number)) {
      out[i] = j;
      i++;
      j++;
    } else if ((length[at + width] as number) >= (length[at + 1] as number)) i++;
    else j++;
  }
  return out;
}

/** Longest skeleton or example aligned: a cluster's text, not a document. */
const maxTokens = 400;
/** Most words of the skeleton a varying phrase may take over on each side (words only some members wrote). */
const maxReach = 4;
/** Two places of difference whose anchors are at most this many tokens apart, in one sentence, are one run. */
const nearRun = 2;
const phraseShape = /^\p{L}+(?: \p{L}+)*$/u;
const longestPhrase = 60;

/** What aligning the examples to the skeleton found: where the choice goes, and what fills the other gaps. */
export interface Varying {
  /** The first place where the phrases differ (two phrases or more offered there); undefined without one. */
  readonly choice: VaryingPlace | undefined;
  /**
   * The other places where the phrases differ, in the text's order: the template varied at several places
   * independently ("is confirmed … the room is heated" / "is pending … the room is cooled").
   */
  readonly others?: readonly VaryingPlace[];
  /**
   * Places the examples wrote other words at that no choice offers (free text, a phrase written once, or a
   * phrase every example agreed on while the cluster's members did not): by piece, what a comment says
   * there. The words are not the template's to write, nor to lose without a word.
   */
  readonly notes?: readonly { readonly at: number; readonly text: string }[];
  /** Pieces at the start that are a greeting the members wrote differently ("Bonjour …,", "… días,"). */
  readonly lead?: number;
  /**
   * Places of a sentence only some members wrote, where every example holding it wrote the same phrase:
   * the words fell below the shared share because the sentence is optional, not because they vary.
   */
  readonly fixed: readonly { readonly from: number; readonly to: number; readonly text: string }[];
  /** Gaps where an example holds a value (a placeholder or a number): never a choice's place. */
  readonly values: ReadonlySet<number>;
  /** Gaps where every example holding them wrote the same placeholder: by piece, its path. */
  readonly tags: ReadonlyMap<number, string>;
}

/**
 * Aligns each example to the skeleton to find the one place where the examples' phrases differ while the
 * words around them agree: a gap, widened over the skeleton words next to it that not every example
 * writes there ("was … to the …" when one example says "has had no scans for ten days"). A phrase is offered
 * when it is letters and spaces only and two examples wrote it or one of its words recurs in the cluster
 * (`choiceWords`); a phrase mistyped counts as the phrase.
 */
export function varyingPlaces(
  pieces: readonly SkeletonPiece[],
  examples: readonly string[],
  choiceWords: ReadonlySet<string>,
): Varying {
  const none: Varying = { choice: undefined, others: [], fixed: [], values: new Set(), tags: new Map() };
  // The skeleton's solid tokens (words, tags, sentence ends) and, for each gap, the solid token after it.
  const solid: { key: string; piece: number; sentence: number }[] = [];
  const gaps: { piece: number; after: number }[] = [];
  let sentence = 0;
  for (const [index, piece] of pieces.entries()) {
    if (piece.type === "word") solid.push({ key: wordKey(piece.text), piece: index, sentence });
    else if (piece.type === "tag") solid.push({ key: `{{${piece.path}}}`, piece: index, sentence });
    else if (piece.type === "mark" && /[.!?]/.test(piece.text)) {
      solid.push({ key: sentenceKey, piece: index, sentence });
      sentence++;
    } else if (piece.type === "gap") gaps.push({ piece: index, after: solid.length });
  }
  if (solid.length > maxTokens || examples.length < 2) return none;
  const keys = solid.map((token) => token.key);
  const read = examples.map((example) => {
    const tokens = tokensOfExample(example).slice(0, maxTokens);
    const matched = matchedIn(keys, tokens);
    // An example holds a sentence when it matched half of its tokens or more.
    const total = new Map<number, number>();
    const hit = new Map<number, number>();
    for (const [i, token] of solid.entries()) {
      total.set(token.sentence, (total.get(token.sentence) ?? 0) + 1);
      if (matched[i] !== undefined) hit.set(token.sentence, (hit.get(token.sentence) ?? 0) + 1);
    }
    const holds = (s: number) => (hit.get(s) ?? 0) * 2 >= (total.get(s) ?? 1);
    return { example, tokens, matched, holds };
  });
  // A token is stable when every example holding its sentence matched it.
  const stable = solid.map((token, i) =>
    read.every(({ matched, holds }) => !holds(token.sentence) || matched[i] !== undefined),
  );
  const widenable = (i: number) =>
    !stable[i] && solid[i]?.key !== sentenceKey && !(solid[i]?.key ?? "").startsWith("{{");
  const places = new Map<string, { left: number; right: number; gaps: number[] }>();
  const openings: { right: number; gap: number }[] = [];
  for (const gap of gaps) {
    let left = gap.after - 1;
    let right = gap.after;
    for (let reach = 0; reach < maxReach && left >= 0 && widenable(left); reach++) left--;
    for (let reach = 0; reach < maxReach && right < solid.length && widenable(right); reach++) right++;
    // A gap with nothing agreed before or after it is the greeting or the tail, not a choice; the
    // opening's words after the greeting are read on their own (below).
    if (left < 0 && right < solid.length && openings.length === 0) openings.push({ right, gap: gap.piece });
    if (left < 0 || right >= solid.length) continue;
    const place = places.get(`${left} ${right}`) ?? { left, right, gaps: [] };
    place.gaps.push(gap.piece);
    places.set(`${left} ${right}`, place);
  }
  // Words the skeleton holds that not every example wrote, between words they all did, away from any gap:
  // most members wrote them, the others other words ("the room is heated" / "the room is cooled").
  const reached = new Set<number>();
  for (const { left, right } of places.values()) for (let i = left + 1; i < right; i++) reached.add(i);
  for (let i = 0; i < solid.length; i++) {
    if (!widenable(i) || reached.has(i)) continue;
    let end = i;
    while (end + 1 < solid.length && widenable(end + 1) && !reached.has(end + 1)) end++;
    const left = i - 1;
    const right = end + 1;
    if (left >= 0 && right < solid.length && end - i < maxReach && !places.has(`${left} ${right}`))
      places.set(`${left} ${right}`, { left, right, gaps: [] });
    i = end;
  }
  const choices: VaryingPlace[] = [];
  const notes: { at: number; text: string }[] = [];
  const fixed: { from: number; to: number; text: string }[] = [];
  const values = new Set<number>();
  const tags = new Map<number, string>();
  const textWords = new Set(
    pieces.flatMap((piece) => (piece.type === "word" ? [piece.text.toLowerCase()] : [])),
  );
  // Places a word or two apart in one sentence are one run of difference ("delivered to a wrong address"
  // against "returned to the depot", where "to" is shared): one place, so the choice is one phrase.
  const runs: { left: number; right: number; gaps: number[] }[] = [];
  for (const place of [...places.values()].sort((a, b) => a.left - b.left)) {
    const last = runs[runs.length - 1];
    const between = last === undefined ? [] : solid.slice(last.right, place.left + 1);
    if (
      last !== undefined &&
      place.left <= last.right + nearRun &&
      between.every((token) => token.key !== sentenceKey)
    ) {
      last.right = Math.max(last.right, place.right);
      last.gaps.push(...place.gaps);
    } else runs.push({ ...place, gaps: [...place.gaps] });
  }
  for (const { left, right, gaps: inside } of runs) {
    const placeholders: (string | undefined)[] = [];
    const from = (solid[left] as { piece: number }).piece + 1;
    const to = (solid[right] as { piece: number }).piece - 1;
    const seen: { key: string; count: number; forms: Map<string, number>; written: string }[] = [];
    let covering = 0;
    let holding = 0;
    // What the examples wrote here that holds a digit and no value taken out: a number of the template's own.
    const numerals = new Set<string>();
    let numbered = 0;
    // What the examples wrote here with a number of the template's own and words: the same in every one.
    const owned = new Set<string>();
    let owning = 0;
    for (const { example, tokens, matched, holds } of read) {
      if (holds((solid[left] as { sentence: number }).sentence)) holding++;
      const start = matched[left];
      const end = matched[right];
      if (start === undefined || end === undefined || end <= start) continue;
      covering++;
      const written = example.slice((tokens[start] as Token).end, (tokens[end] as Token).start).trim();
      // A value, or a place where mining took an identifier out: no phrase to offer.
      if (/\{\{|\p{N}|\u2327|\u2026/u.test(written)) {
        for (const gap of inside) values.add(gap);
        // The number's marks around it ("Horaires : 14h-19h") are the text's, kept where it is written.
        if (numeralShape.test(written.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))) {
          numerals.add(written);
          numbered++;
        } else if (!/\{\{|\u2327|\u2026/u.test(written)) {
          owned.add(written.toLowerCase());
          owning++;
        }
        placeholders.push(/^\{\{([a-z_][\w.]*)\}\}$/i.exec(written)?.[1]);
        continue;
      }
      placeholders.push(undefined);
      const phrase = written.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "").replace(/\s+/g, " ");
      if (!phraseShape.test(phrase) || phrase.length > longestPhrase) continue;
      const key = phrase.toLowerCase();
      // A phrase mistyped is the phrase: counted with the first of the same words.
      const entry = seen.find((other) => sameWords(other.key, key));
      if (entry === undefined) seen.push({ key, count: 1, forms: new Map([[phrase, 1]]), written });
      else {
        entry.count++;
        entry.forms.set(phrase, (entry.forms.get(phrase) ?? 0) + 1);
      }
    }
    // A phrase one example wrote is offered when most of its words are known (recurring in the cluster,
    // in its text, or function words) and none is a known word mistyped: not a one-off slip.
    const known = (part: string) => choiceWords.has(part) || textWords.has(part) || connectors.has(part);
    const plausible = (key: string) => {
      const parts = key.split(" ");
      const mistyped = parts.some(
        (part) => !known(part) && [...choiceWords, ...textWords].some((other) => nearWord(part, other)),
      );
      return !mistyped && parts.filter(known).length * 2 > parts.length;
    };
    const phrases = seen
      .filter(({ key, count }) => count >= 2 || plausible(key))
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
    if (phrases.length >= 2)
      choices.push({ from, to, phrases: phrases.map(({ forms }) => writtenForm(forms, known)) });
    // Where the comment goes: at the place's first gap, or where its words start.
    const noteAt = inside[0] ?? from;
    // Examples that wrote several phrases here, too few of them offered: free text, never lost unsaid.
    if (seen.length >= 2 && phrases.length < 2) notes.push({ at: noteAt, text: variesHere });
    // A gap where every example holding it wrote the same record value (the member shown wrote it in
    // another form): that value's placeholder.
    const paths = new Set(placeholders.filter((path) => path !== undefined));
    const [path] = paths;
    const writing = placeholders.filter((other) => other === path).length;
    const onlyGap = inside.length === 1 && pieces.slice(from, to + 1).every((piece) => piece.type !== "word");
    if (onlyGap && path !== undefined && paths.size === 1 && writing >= 2 && writing * 2 > covering)
      tags.set(inside[0] as number, path);
    // The examples agree on one phrase: it is the template's when its sentence is optional (its words
    // fell below the shared share for that) or when they wrote it in several forms (mistyped, in other
    // case: its words fell below the share for that). One phrase in one form where every example holds
    // the sentence may be one option of a choice the few examples do not show: not written as text.
    const [only] = seen;
    if (
      seen.length === 1 &&
      only !== undefined &&
      only.count === covering &&
      covering >= 2 &&
      fixedShape.test(only.written)
    ) {
      if (holding < read.length || only.forms.size > 1)
        fixed.push({ from, to, text: only.forms.size === 1 ? only.written : writtenForm(only.forms, known) });
      // The cluster's members did not share the phrase the examples all wrote: a comment says what they
      // wrote, and that others wrote otherwise, where the words would otherwise go unsaid.
      else notes.push({ at: noteAt, text: agreedNote(only.written) });
    }
    // The same with a number of the template's own in it ("es válido durante 30"): never a value's place.
    const [ownedText] = owned;
    if (owned.size === 1 && ownedText !== undefined && owning === read.length && owning >= minNumerals)
      notes.push({ at: noteAt, text: agreedNote(ownedText) });
    // Mining reads every number as a value; one that every example wrote alike where no record holds it
    // ("within 14 days", "24 heures") is the template's text: taken out, it would leave "within days".
    const [numeral] = numerals;
    if (numeral !== undefined && numerals.size === 1 && numbered === read.length && numbered >= minNumerals)
      fixed.push({ from, to, text: numeral });
  }
  // Words every example wrote after its greeting, before the first words they all agree on, where the
  // members did not share them ("Hi Ana, Unfortunately shipment …" read "… shipment"): said, not lost.
  for (const { right, gap } of openings) {
    const after = read.map(({ example, tokens, matched }) => {
      const end = matched[right];
      if (end === undefined) return undefined;
      const opening = example.slice(0, (tokens[end] as Token).start).trim();
      // The greeting ends at its first comma, colon or "!" ("Good morning, Unfortunately").
      const rest = greetingOf(opening) === undefined ? opening : opening.replace(/^[^,:!]*[,:!]/, "");
      return rest.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "").replace(/\s+/g, " ");
    });
    const [first] = after;
    if (
      first !== undefined &&
      phraseShape.test(first) &&
      first.length <= longestPhrase &&
      after.every((other) => other !== undefined && sameWords(other.toLowerCase(), first.toLowerCase()))
    )
      notes.push({ at: gap, text: agreedNote(first) });
  }
  const [choice, ...others] = choices;
  return { choice, others, notes, fixed, values, tags, lead: greetingLead(pieces, solid, stable) };
}

const variesHere = "Varies here";

/** A comment's words for a phrase every example wrote at a place the cluster's members varied at. */
function agreedNote(phrase: string): string {
  const words = phrase.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  // Only words and short numbers: a comment is code nobody scans for what a message may not hold.
  if (words === "" || words.length > longestPhrase || /\p{N}{4}/u.test(words)) return variesHere;
  return `${variesHere}; the examples wrote: ${words}`;
}

/** Most words of a greeting the text opens with ("Buenos días,", "Dear Mrs …,"). */
const greetingWords = 6;

/**
 * How many pieces at the start are a greeting the members wrote differently: the words before the first
 * comma or colon (before any sentence's end), with no value of the records, a gap or a word not every
 * example wrote among them, and the next sentence starting there with a capital or the words opening as
 * a greeting does. "Buenos días,"
 * read as "… días," (the name left out, "días" shared with "en los próximos días") is no template text.
 */
function greetingLead(
  pieces: readonly SkeletonPiece[],
  solid: readonly { piece: number }[],
  stable: readonly boolean[],
): number {
  let words = 0;
  let varied = false;
  let gap = false;
  for (const [index, piece] of pieces.entries()) {
    if (piece.type === "gap") {
      varied = true;
      gap = true;
    }
    // A greeting naming the recipient from the records is whole where the members agreed on its words
    // ("Dear {{guest.name}},"); where they opened it differently ("Bonjour …", "Chère …") the name goes
    // with the words, or the text would open "{{owner.name}}, Nous vous rappelons".
    else if (piece.type === "tag") {
      if (!gap) return 0;
    } else if (piece.type === "word") {
      words++;
      const at = solid.findIndex((token) => token.piece === index);
      if (at !== -1 && stable[at] === false) varied = true;
      if (words > greetingWords) return 0;
    } else if (piece.type === "mark") {
      if (/[.!?]/.test(piece.text)) return 0;
      if (!/[,:]/.test(piece.text)) continue;
      if (!varied) return 0;
      const next = pieces.slice(index + 1).find((other) => other.type === "word" || other.type === "tag");
      const opened = pieces
        .slice(0, index)
        .map((other) => (other.type === "word" || other.type === "mark" ? other.text : " "))
        .join("");
      const capital = next?.type === "word" && /^\p{Lu}/u.test(next.text);
      return capital || greetingOf(`${opened},`) !== undefined ? index + 1 : 0;
    }
  }
  return 0;
}

const fixedShape = /^[\p{L} ,;:()'\u2013\u2014-]+$/u;
/** A number written alone or with a word or two ("14", "24 hours", "9:00"): no value taken out. */
const numeralShape = /^(?=[^{}\u2026\u2327]*\p{N})[\p{L}\p{N}]+(?:[ .,:/-][\p{L}\p{N}]+){0,2}$/u;
// Examples that must agree on a number before it is written: a value fewer agree on by chance.
const minNumerals = 3;

/** Two phrases of as many words, each word the same or one mistyped. */
function sameWords(a: string, b: string): boolean {
  const left = a.split(" ");
  const right = b.split(" ");
  return left.length === right.length && left.every((part, i) => nearWord(part, right[i] as string));
}

/** The same word, or one mistyped: a letter swapped, changed, left out or added (short words too). */
function nearWord(a: string, b: string): boolean {
  if (a === b || isTypoOf(a, b)) return true;
  if (Math.min(a.length, b.length) < 3 || Math.abs(a.length - b.length) !== 1) return false;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  for (let i = 0; i < long.length; i++) if (long.slice(0, i) + long.slice(i + 1) === short) return true;
  return false;
}

/**
 * The form to offer: the one with the most known words (a mistyped form loses to the word), then the one
 * most examples wrote, then the one in lower case (a capital there is a sentence's start).
 */
function writtenForm(forms: ReadonlyMap<string, number>, known: (word: string) => boolean): string {
  const score = (form: string) => form.toLowerCase().split(" ").filter(known).length;
  const ranked = [...forms].sort(
    ([a, countA], [b, countB]) =>
      score(b) - score(a) ||
      countB - countA ||
      Number(b === b.toLowerCase()) - Number(a === a.toLowerCase()) ||
      (a < b ? -1 : a > b ? 1 : 0),
  );
  return (ranked[0] as [string, number])[0];
}

const wordSet = (...lists: string[]) => new Set(lists.join(" ").split(" "));

/**
 * Function words, in English and German (the languages mining reads dates in) and the other common ones of
 * Western Europe. A preposition or a determiner needs what follows it: left before a value taken out, it
 * dangles ("was due on .").
 */
const prepositions = wordSet(
  "to of for on in at by with from into onto about via per since until under over after before between during within through without up",
  "am im an auf bei mit für von vom zu zum zur um bis nach ins zwischen seit unter über",
  "pour par avec sur dans de du au aux para por con en del al van voor met op",
);
const determiners = wordSet(
  "a an the its your our their his her my this that these those",
  "der die das den dem des ein eine einen einem einer eines ihr ihre ihren unser unsere",
  "le la les un une des el los las una het een",
);
const conjunctions = wordSet("and or but because as than und oder aber weil dass et ou y o");
/** A verb that waited for its complement ("and is …" with nothing left after it). */
const auxiliaries = wordSet("is are was were be been has have will ist sind war wird wurde hat haben");
const connectors = new Set([...prepositions, ...determiners, ...conjunctions, ...auxiliaries]);

/** Marks where a value or a gap was taken out of a text, for the words it leaves dangling. */
const removed = "\u0000";

/**
 * The pieces with each gap where every example wrote the same record value made that value's tag, when
 * `tag` makes it one (a declared field the audience may read): the member the skeleton shows wrote the
 * value in a form masking did not read, and the text keeps it.
 */
export function withValueTags(
  pieces: readonly SkeletonPiece[],
  varying: Varying,
  tag: (path: string) => { slot: string; alias: string } | undefined,
): SkeletonPiece[] {
  return pieces.map((piece, index) => {
    const path = varying.tags.get(index);
    const found = path === undefined ? undefined : tag(path);
    return found === undefined || path === undefined ? piece : { type: "tag", ...found, path };
  });
}

/** What {@link composeBody} writes where. */
export interface BodyChoices {
  /** Slots left out (their tags are taken out like gaps). */
  readonly dropped: ReadonlySet<string>;
  /** The choice slot's name; undefined without one. */
  readonly choice: string | undefined;
  /** The choice slots' names for the other places (`varying.others`, in order); a comment where none. */
  readonly more?: readonly (string | undefined)[];
  /**
   * What the examples showed: the choice's place (without one, the first gap inside the text that holds
   * no value: the fallback when no single place varies) and the phrases of optional sentences.
   */
  readonly varying: Varying;
}

/**
 * The mustache body: tags kept, the choice where the phrases varied, an optional sentence's phrase where
 * its examples agree, every other gap taken out with the function words it leaves dangling, empty
 * brackets and doubled punctuation removed, sentences capitalised.
 */
export function composeBody(pieces: readonly SkeletonPiece[], choices: BodyChoices): string {
  const { dropped, choice, varying } = choices;
  // Only where aligning the examples found the phrases: any other gap (a greeting's name, a word that
  // varied there alone) would put the choice where the template says something else. Each place gets its
  // slot; a place without one says in a comment what was written there, rather than keep one phrase as
  // the text or lose them all.
  const places = [varying.choice, ...(varying.others ?? [])].flatMap((place, at) => {
    if (place === undefined) return [];
    const name = at === 0 ? choice : choices.more?.[at - 1];
    const usable = name !== undefined && !dropped.has(name);
    return [
      { ...place, write: usable ? `{{${name}}}` : comment(`${variesHere}: ${place.phrases.join(" | ")}`) },
    ];
  });
  const inPlace = (from: number, to: number) => places.some((place) => !(to < place.from || from > place.to));
  let body = "";
  for (let index = varying.lead ?? 0; index < pieces.length; index++) {
    const piece = pieces[index] as SkeletonPiece;
    const place = places.find((entry) => entry.from === index);
    if (place !== undefined) {
      body += ` ${place.write} `;
      index = place.to;
      continue;
    }
    for (const note of varying.notes ?? [])
      if (note.at === index && !inPlace(index, index)) body += ` ${comment(note.text)} `;
    const fixed = varying.fixed.find((entry) => entry.from === index);
    if (fixed !== undefined && !inPlace(fixed.from, fixed.to)) {
      body += ` ${fixed.text} `;
      index = fixed.to;
      continue;
    }
    if (piece.type === "word" || piece.type === "mark") body += piece.text;
    else if (piece.type === "tag" && !dropped.has(piece.slot)) body += `{{${piece.slot}.${piece.alias}}}`;
    else body += removed;
  }
  return tidy(withoutDangling(body));
}

/** A mustache comment: shown to whoever reads the template's code, never sent. */
function comment(text: string): string {
  return `{{! ${text.replace(/[{}]/g, "")} }}`;
}

/**
 * The text with each removal mark gone, and the function words it left dangling: a preposition or
 * determiner directly before it ("to the …"), a conjunction or auxiliary verb when a clause ends there
 * ("and is …."; "ist vom … bis" keeps "ist").
 */
function withoutDangling(text: string): string {
  let out = text;
  for (let previous = ""; previous !== out; ) {
    previous = out;
    out = out.replace(/\u0000(?:\s*\u0000)+/g, removed);
    out = out.replace(
      /([\p{L}]+)\s*\u0000(?=(\s*[.,;:!?)]|\s*$)?)/gu,
      (whole, before: string, ends?: string) => {
        const lower = before.toLowerCase();
        const dangles =
          prepositions.has(lower) ||
          determiners.has(lower) ||
          (ends !== undefined && (conjunctions.has(lower) || auxiliaries.has(lower)));
        return dangles ? removed : whole;
      },
    );
  }
  return out.replaceAll(removed, " ");
}

/**
 * One space between words, none before a closing mark or after an opening bracket; brackets that hold
 * nothing or are not closed removed, a dash with nothing after it removed, doubled marks made one, no
 * mark first, and each sentence starting with a capital.
 */
export function tidy(text: string): string {
  let out = text.replace(/\s+/g, " ");
  for (let previous = ""; previous !== out; ) {
    previous = out;
    out = out
      .replace(/ ([.,;:!?)])/g, "$1")
      .replace(/\( /g, "(")
      .replace(/\([^\p{L}\p{N}{}()]*\)/gu, " ")
      .replace(/\s*[\u2013\u2014]\s*(?=[.,;:!?)]|$)/g, "")
      .replace(/ -(?= |[.,;:!?)]|$)/g, "")
      .replace(/([,;:])\s*([.,;:!?])/g, "$2")
      .replace(/([.!?])\s*[,;:]/g, "$1")
      .replace(/\.(?:\s*\.)+/g, ".")
      .replace(/^[\s.,;:!?)\u2013\u2014-]+/, "")
      .replace(/\s+/g, " ");
  }
  return capitalised(balanced(out)).trim();
}

/** The text without a bracket that is not closed or not opened. */
function balanced(text: string): string {
  const open: number[] = [];
  const unmatched = new Set<number>();
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") open.push(i);
    else if (text[i] === ")") {
      if (open.length > 0) open.pop();
      else unmatched.add(i);
    }
  }
  for (const at of open) unmatched.add(at);
  if (unmatched.size === 0) return text;
  return [...text]
    .filter((_, i) => !unmatched.has(i))
    .join("")
    .replace(/ {2,}/g, " ")
    .replace(/ ([.,;:!?])/g, "$1");
}

/** The first letter of the text and of each sentence in capitals. */
function capitalised(text: string): string {
  return text.replace(
    /(^|[.!?] )(\p{Ll})/gu,
    (_, before: string, letter: string) => before + letter.toUpperCase(),
  );
}

/** Words a subject does not start with: requests, pronouns and the verbs that carry them. */
const openers = new Set(
  [
    "please could would can will you we i us kindly just this is are am be has have",
    "bitte könnten können würden möchten sie wir ich haben hat",
    "merci veuillez nous vous je por favor podría nosotros",
  ]
    .join(" ")
    .split(" "),
);
/** Words a subject's clause ends before: a new clause starts. */
const clauseWords = new Set(
  "and but because so which whose who where when while although und aber weil denn damit da sodass et mais parce y pero porque".split(
    " ",
  ),
);
const longestSubject = 60;

/**
 * The subject: a short line from the first sentence after the salutation. A phrase that only introduced a
 * value ("for order {{order.number}}", "on {{order.placedAt}}") is taken out whole, as the value cannot be
 * in a subject; the first clause is kept, without a request's opening words ("Please", "Could you") and
 * without function words at its end: "Please refund {{order.total}} to the buyer for order
 * {{order.number}}, placed on …" gives "Refund to the buyer". `isQuantity` tells the values shown as a date,
 * an amount or a number (`visit.on`), which no record's noun stands for.
 */
export function subjectLine(text: string, isQuantity: (path: string) => boolean = () => false): string {
  // A comment is for whoever reads the code, not what the message says.
  const body = text.replace(/\{\{![^}]*\}\}/g, " ");
  // A colon followed by a value introduces it ("el presupuesto de {{treatment.description}}: {{…}}"): no
  // salutation ends there.
  const salutation = /^[^,:.!?]*\{\{[^}]*\}\}[^,:.!?]*[,:](?!\s*\{\{)/.exec(body);
  const rest = salutation === null ? body : body.slice(salutation[0].length);
  const sentences = rest.split(/[.!?](?:\s|$)/).filter((sentence) => /\p{L}/u.test(sentence));
  for (const sentence of sentences) {
    const subject = subjectOfSentence(sentence, isQuantity);
    if (subject !== "") return subject;
  }
  return "Message";
}

function subjectOfSentence(sentence: string, isQuantity: (path: string) => boolean): string {
  const lead = [...prepositions].join("|");
  const determiner = [...determiners].join("|");
  // A phrase that only introduces a value goes whole ("for order {{order.number}}", "on {{date}}"); a value
  // its record's noun already names goes ("your claim {{claim.number}}"); after a determiner the record's
  // noun stands for it ("the {{vehicle.model}}" → "the vehicle"), unless it is a date or an amount, which a
  // determiner introduces in some languages ("le {{visit.on}}", "el {{visit.on}}"); any other value goes.
  const withoutValues = sentence
    .replace(
      new RegExp(
        `(?<![\\p{L}\\p{N}])(?:(?:${lead})\\s+)+(?:(?:${determiner})\\s+)?(?:[\\p{L}]+\\s+)?\\{\\{[^}]*\\}\\}`,
        "giu",
      ),
      " ",
    )
    .replace(
      /([\p{L}]+)(\s+)\{\{([a-z_]+)((?:\.[^}]*)?)\}\}/giu,
      (_whole, before: string, space: string, noun: string, field: string) => {
        const lower = before.toLowerCase();
        if (lower === noun.toLowerCase()) return before;
        if (determiners.has(lower) && isQuantity(`${noun}${field}`)) return " ";
        if (determiners.has(lower) && noun !== "choice") return `${before}${space}${noun.replace(/_/g, " ")}`;
        return `${before} `;
      },
    )
    .replace(/\{\{[^}]*\}\}/g, " ");
  // A bracket holds an aside, not the subject: it goes whole.
  const clauses = withoutValues.replace(/\([^()]*\)/g, " ").split(/[,;:()\u2013\u2014]/);
  for (const clause of clauses) {
    const words = clause.match(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu) ?? [];
    const end = words.findIndex((found, index) => index > 0 && clauseWords.has(found.toLowerCase()));
    const kept = end === -1 ? words : words.slice(0, end);
    while (kept.length > 0 && openers.has((kept[0] as string).toLowerCase())) kept.shift();
    let subject = "";
    for (const next of kept) {
      if (`${subject} ${next}`.trim().length > longestSubject) break;
      subject = `${subject} ${next}`.trim();
    }
    const words2 = subject.split(" ");
    while (words2.length > 0 && connectors.has((words2[words2.length - 1] as string).toLowerCase()))
      words2.pop();
    // One word left is rarely a subject when more of the sentence follows ("Reported").
    if (words2.length >= 2 || (words2.length === 1 && clauses.length === 1)) {
      const line = words2.join(" ");
      return line.charAt(0).toUpperCase() + line.slice(1);
    }
  }
  return "";
}
