/**
 * What the Loghub benchmark runs: anything that puts lines into groups. One shape for the Drain baseline
 * and for `mine`'s clustering, so both run on the same lines in the same run and either can be replaced.
 */
export interface LineParser {
  readonly name: string;
  /** One group label per line, in order; lines with equal labels are one template. */
  parse(contents: readonly string[]): ArrayLike<number>;
}
