import { isPlaceholder, numberToken, sentenceEnd } from "./tokens.js";

/** Lines that agree everywhere but at one place, with at least this many of them: a value is written there. */
const minVariants = 3;
/** Fewest tokens the lines must agree on: "connection closed" and "connection reset" are two events. */
const minFrame = 4;
/** Longer lines are left to the alignment, which merges a phrase's difference within a long frame. */
const maxLine = 24;
/**
 * A line whose cluster has at most this many members, or this share of the members of all lines at the
 * place, wrote a rare word there: a value's, not a message's own.
 */
const rareSize = 2;
const rareShare = 0.05;

/** One place of a frame: the lines that fit it, and what they write there. */
interface Place {
  readonly members: number[];
  /** The words written at the place, each once. */
  readonly words: Set<string>;
  /** Whether a line leaves the place out: a cluster whose members wrote many words there. */
  empty: boolean;
}

/**
 * Groups of lines that agree on every token but one word at one place, which one line may leave out
 * (a cluster whose members wrote many words there keeps none of them as its own): when three or more
 * lines do so and the place reads as a value's, the word is a value no record held — a user name, a
 * host, a file — not what tells two messages apart. A place reads as a value's when a line leaves it out,
 * when a line writes a number there (a user "test9" beside a user "webmaster"), when most of its lines
 * are rare clusters (`sizes`: at most two members, or a twentieth of the place's: a long tail of values
 * beside the one most written), or when two of its words are written at the place of another frame too
 * (a user name recurs in each message about the user, while "Paused" and "Stopped" in "VM Paused" and
 * "VM Stopped" belong to their one frame). Lines that share only a short frame are never grouped.
 * Returns each group (indices into `lines`, in order) of two lines or more.
 */
export function variablePlaceGroups(
  lines: readonly (readonly string[])[],
  sizes: readonly number[] = lines.map(() => 1),
): number[][] {
  const places = new Map<string, Place>();
  const note = (key: string, at: number, word: string | undefined) => {
    let place = places.get(key);
    if (place === undefined) {
      place = { members: [], words: new Set(), empty: false };
      places.set(key, place);
    }
    if (place.members.at(-1) !== at) place.members.push(at);
    if (word === undefined) place.empty = true;
    else place.words.add(word);
  };
  for (const [at, line] of lines.entries()) {
    if (line.length > maxLine || line.length < minFrame) continue;
    // The word at a place replaced by a mark, and the mark inserted at each gap; the mark cannot be a token.
    if (line.length > minFrame)
      for (let place = 0; place < line.length; place++) {
        const word = line[place] as string;
        if (variable(word)) note(keyOf(line, place, place + 1), at, word);
      }
    for (let gap = 0; gap <= line.length; gap++) note(keyOf(line, gap, gap), at, undefined);
  }
  const candidates = [...places.values()].filter((place) => place.members.length >= minVariants);
  const recurring = recurringPlaces(candidates);
  const parent = lines.map((_, at) => at);
  const root = (at: number): number => {
    let top = at;
    while (parent[top] !== top) top = parent[top] as number;
    parent[at] = top;
    return top;
  };
  for (const place of candidates) {
    if (!holdsValues(place, sizes) && !recurring.has(place)) continue;
    const first = root(place.members[0] as number);
    for (const member of place.members) parent[root(member)] = first;
  }
  const groups = new Map<number, number[]>();
  for (const at of lines.keys()) {
    const group = groups.get(root(at));
    if (group === undefined) groups.set(root(at), [at]);
    else group.push(at);
  }
  return [...groups.values()].filter((group) => group.length > 1);
}

/** Whether what a place's lines write there reads as values, by the place alone. */
function holdsValues(place: Place, sizes: readonly number[]): boolean {
  if (place.empty || place.words.has(numberToken)) return true;
  let total = 0;
  for (const at of place.members) total += sizes[at] ?? 1;
  const most = Math.max(rareSize, rareShare * total);
  const rare = place.members.filter((at) => (sizes[at] ?? 1) <= most).length;
  return 2 * rare >= place.members.length;
}

/** The places two of whose words are also written at one other place. */
function recurringPlaces(places: readonly Place[]): Set<Place> {
  const byWord = new Map<string, Place[]>();
  for (const place of places)
    for (const word of place.words) {
      // A number recurs everywhere, and says so already (see `holdsValues`).
      if (word === numberToken) continue;
      const list = byWord.get(word);
      if (list === undefined) byWord.set(word, [place]);
      else list.push(place);
    }
  const recurring = new Set<Place>();
  for (const place of places) {
    const shared = new Map<Place, number>();
    for (const word of place.words)
      for (const other of byWord.get(word) ?? []) {
        if (other === place) continue;
        const count = (shared.get(other) ?? 0) + 1;
        shared.set(other, count);
        if (count >= 2) recurring.add(place);
      }
  }
  return recurring;
}

/** A token that may be a value: a word or a number, not a placeholder or a sentence's end. */
function variable(token: string): boolean {
  return token !== sentenceEnd && !isPlaceholder(token);
}

function keyOf(line: readonly string[], from: number, to: number): string {
  return `${line.slice(0, from).join(" ")}\u0000${line.slice(to).join(" ")}`;
}
