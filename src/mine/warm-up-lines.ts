import type { LineProblem } from "./read-line.js";

/**
 * Most characters of the lines a reading worker warms up on (4 MB): a history of huge lines warms it on
 * a few. A line longer than a tenth of that teaches a worker no more than a short one.
 */
export const warmUpChars = 4_194_304;

/**
 * The lines read on the calling thread before the reading workers start, kept for the workers to read
 * once and throw away, so their code is compiled before they are given a batch someone waits for.
 * Bounded by `maxChars`; line problems are not kept.
 */
export class WarmUpLines {
  readonly #maxChars: number;
  #lines: string[] = [];
  #chars = 0;

  constructor(maxChars = warmUpChars) {
    this.#maxChars = maxChars;
  }

  keep(batch: readonly (string | LineProblem)[]): void {
    for (const line of batch) {
      if (typeof line !== "string" || line.length > this.#maxChars / 10) continue;
      if (this.#chars + line.length > this.#maxChars) return;
      this.#lines.push(line);
      this.#chars += line.length;
    }
  }

  /** The lines kept, given up: the workers are sent them once, and nothing is kept after. */
  take(): string[] {
    const lines = this.#lines;
    this.#lines = [];
    this.#chars = this.#maxChars;
    return lines;
  }
}
