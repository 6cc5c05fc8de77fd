import { isPlaceholder, numberToken, sentenceEnd } from "./tokens.js";

/** Lines that agree everywhere but at one place, with at least this many of them: a value is written there. */
const minVariants = 3;
/** Fewest tokens the lines must agree on: "connection closed" and "connection reset" are two events. */
const minFrame = 4;
/** Longer lines are left to the alignment, which merges a phrase's difference within a long frame. */
const maxLine = 24;

/**
 * Groups of lines that agree on every token but one word at one place, which one line may leave out
 * (a cluster whose members wrote many words there keeps none of them as its own): when three or more
 * lines do so, the word is a value no record held — a user name, a host, a file — not what tells two
 * messages apart. Lines that share only a short frame are never grouped. Returns each group (indices
 * into `lines`, in order) of two lines or more.
 */
export function variablePlaceGroups(lines: readonly (readonly string[])[]): number[][] {
  const byKey = new Map<string, number[]>();
  const note = (key: string, at: number) => {
    const list = byKey.get(key);
    if (list === undefined) byKey.set(key, [at]);
    else if (list.at(-1) !== at) list.push(at);
  };
  for (const [at, line] of lines.entries()) {
    if (line.length > maxLine || line.length < minFrame) continue;
    // The word at a place replaced by a mark, and the mark inserted at each gap; the mark cannot be a token.
    if (line.length > minFrame)
      for (let place = 0; place < line.length; place++)
        if (variable(line[place] as string)) note(keyOf(line, place, place + 1), at);
    for (let gap = 0; gap <= line.length; gap++) note(keyOf(line, gap, gap), at);
  }
  const parent = lines.map((_, at) => at);
  const root = (at: number): number => {
    let top = at;
    while (parent[top] !== top) top = parent[top] as number;
    parent[at] = top;
    return top;
  };
  for (const members of byKey.values()) {
    if (members.length < minVariants) continue;
    const first = root(members[0] as number);
    for (const member of members) parent[root(member)] = first;
  }
  const groups = new Map<number, number[]>();
  for (const at of lines.keys()) {
    const group = groups.get(root(at));
    if (group === undefined) groups.set(root(at), [at]);
    else group.push(at);
  }
  return [...groups.values()].filter((group) => group.length > 1);
}

/** A word that may be a value: not a number (already one token), a placeholder or a sentence's end. */
function variable(token: string): boolean {
  return token !== numberToken && token !== sentenceEnd && !isPlaceholder(token);
}

function keyOf(line: readonly string[], from: number, to: number): string {
  return `${line.slice(0, from).join(" ")}\u0000${line.slice(to).join(" ")}`;
}
