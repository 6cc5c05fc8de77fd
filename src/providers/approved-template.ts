/**
 * A text approved at the provider (a WhatsApp template's header or body with `{{1}}`, `{{2}}`…): its
 * fixed pieces and, between each two, the number of the variable there.
 */
export interface ApprovedText {
  /** One more than `variables`: the text before the first variable, between each two, after the last. */
  readonly fixed: readonly string[];
  readonly variables: readonly string[];
}

/** Parses an approved text, or returns what is wrong with it. */
export function parseApprovedText(text: string): ApprovedText | string {
  const fixed: string[] = [];
  const variables: string[] = [];
  let last = 0;
  for (const match of text.matchAll(/\{\{\s*(\d{1,3})\s*\}\}/g)) {
    fixed.push(text.slice(last, match.index));
    variables.push(String(Number(match[1])));
    last = match.index + match[0].length;
  }
  fixed.push(text.slice(last));
  if (fixed.slice(1, -1).some((piece) => piece === ""))
    return "two variables are next to each other; WhatsApp needs fixed text between them";
  if (fixed.some((piece) => /\{\{|\}\}/.test(piece)))
    return 'it has a placeholder that is not "{{n}}" with a number';
  return { fixed, variables };
}

/**
 * The variables that turn the approved text into `rendered` exactly, or undefined when no choice of
 * non-empty values does or more than one does. The earliest and the latest place of each fixed piece
 * bound every possible split; where they agree for every piece, the split is the only one. A value
 * holding a fixed piece can make two splits possible: the message is then refused, never sent with
 * its values moved between variables.
 */
export function variablesFor(
  approved: ApprovedText,
  rendered: string,
): ReadonlyMap<string, string> | undefined {
  const { fixed, variables } = approved;
  const first = fixed[0] ?? "";
  const end = fixed[fixed.length - 1] ?? "";
  if (variables.length === 0) return rendered === first ? new Map() : undefined;
  if (rendered.length < first.length + end.length + variables.length) return undefined;
  if (!rendered.startsWith(first) || !rendered.endsWith(end)) return undefined;
  const middle = rendered.slice(first.length, rendered.length - end.length);
  const inner = fixed.slice(1, -1);
  const earliest: number[] = [];
  let from = 1;
  for (const piece of inner) {
    const at = middle.indexOf(piece, from);
    if (at < 0) return undefined;
    earliest.push(at);
    from = at + piece.length + 1;
  }
  if (from > middle.length) return undefined;
  const latest: number[] = [];
  let before = middle.length - 1;
  for (let index = inner.length - 1; index >= 0; index--) {
    const piece = inner[index] ?? "";
    const at = middle.lastIndexOf(piece, before - piece.length);
    if (at < 1) return undefined;
    latest.unshift(at);
    before = at - 1;
  }
  if (earliest.some((at, index) => at !== latest[index])) return undefined;
  const values = new Map<string, string>();
  let start = 0;
  for (const [index, variable] of variables.entries()) {
    const stop = index < inner.length ? (earliest[index] ?? 0) : middle.length;
    const value = middle.slice(start, stop);
    const known = values.get(variable);
    if (known !== undefined && known !== value) return undefined;
    values.set(variable, value);
    start = stop + (inner[index]?.length ?? 0);
  }
  return values;
}
