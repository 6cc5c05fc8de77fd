/**
 * A table printed row by row, so a long benchmark shows each result as soon as it is measured rather
 * than all at the end: the header fixes the column widths, the first column is left-aligned (a name),
 * the others right-aligned (figures).
 */

/** Prints `header` at once and returns a function that prints one row under it. */
export function printTable(
  title: string,
  header: readonly string[],
  widths: readonly number[],
): (row: readonly string[]) => void {
  const line = (cells: readonly string[]) =>
    `  ${cells.map((cell, at) => (at === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[at] ?? 0))).join("  ")}\n`;
  process.stdout.write(`\n${title}\n${line(header)}`);
  return (row) => process.stdout.write(line(row));
}

/** A share as "97.3%". */
export const percent = (share: number, digits = 1): string => `${(share * 100).toFixed(digits)}%`;

/** A difference in percentage points with its sign, rounded first so that no "−0.0" is shown. */
export function points(difference: number): string {
  const shown = Math.abs(difference * 100).toFixed(1);
  return `${difference < 0 && Number(shown) !== 0 ? "−" : "+"}${shown}`;
}
