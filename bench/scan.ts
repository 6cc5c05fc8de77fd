/**
 * Value cleaning and the outbound scan are linear in the length of their input: the time for 10k,
 * 100k and 1M characters of adversarial text, and the ratio between sizes (≈10 when linear; a
 * quadratic pass would show ≈100). Both are internal steps of decide(), measured from the sources.
 * Each input is cleaned as a record text value, then scanned as the only value of a message.
 */
import { sanitizeValue } from "../src/core/message/sanitize.js";
import { scanMessage } from "../src/core/scan/scan.js";
import { report } from "./measure.js";

/** Adversarial shapes, each repeated to the length asked for. */
const inputs: Record<string, string> = {
  "digit groups with separators": "0151 - 2345_",
  "digits and dots": "1.",
  "many dots": ".",
  "single-letter label chain": "a.",
  "long host label chain": "ab.",
  "many @": "@",
  "address-like runs": "a.b@c",
  "bracketed at and dots": "x(at)y[.]",
  "mixed scripts and digits": "аb.сd١٢٣ ",
  "id-like run with dashes": "a1-",
  "UUID-like segments": "0123abcd-",
  "colons after scheme letters": "javascript",
  "markup and template brackets": "{{<%[|",
  "digits with combining marks": "1\u20E32\u0332 ",
  "spaced at-signs": "a @ b ",
  "at and dots in quotes of other scripts": "x\u00ABat\u00BBy\u300C.\u300D",
  "id-like run with other dashes": "a1\u2010",
  "emoji labels between dots": "\u{1F4A9}.",
  "symbol and letter label chain": "\u2603a.\u2764",
  "many distinct emoji and dots": Array.from(
    { length: 3000 },
    (_, i) => `${String.fromCodePoint(0x1f300 + i)}.`,
  ).join(""),
  "digits drawn as dots": "a\u0660\u0661\u0660b\u06F0",
  "base64-like runs with slashes and plus": "aB3/+=",
  "digit groups glued to letters": "x0151 2345a",
};

function repeated(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/**
 * Best of `rounds` runs of `fn`, in milliseconds of CPU time: on a shared machine, wall time also
 * counts the time other processes held the CPU, which says nothing about the algorithm.
 */
function best(fn: () => unknown, rounds = 3): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    fastest = Math.min(fastest, (used.user + used.system) / 1000);
  }
  return fastest;
}

function cleanAndScan(raw: string): void {
  const clean = sanitizeValue(raw, { multiline: true });
  scanMessage(`Note: ${clean}`, { literal: "Note: ", formatted: [], whole: [clean] });
}

const sizes = [10_000, 100_000, 1_000_000];
// Warm the character tables and the JIT on a small run of each shape.
for (const unit of Object.values(inputs)) cleanAndScan(repeated(unit, 1_000));

process.stdout.write(
  "value cleaning + outbound scan, adversarial inputs (CPU ms at 10k / 100k / 1M chars; ratios)\n",
);
let worst100k = 0;
let worstRatio = 0;
for (const [name, unit] of Object.entries(inputs)) {
  // The ":" makes the last shape a run of scheme-like words.
  const shaped = name.startsWith("colons") ? `${unit}:` : unit;
  const times = sizes.map((size) => {
    const raw = repeated(shaped, size);
    return best(() => cleanAndScan(raw), size >= 1_000_000 ? 3 : 5);
  });
  const [small, medium, large] = times as [number, number, number];
  worst100k = Math.max(worst100k, medium);
  worstRatio = Math.max(worstRatio, large / medium);
  report(
    name,
    `${times.map((ms) => ms.toFixed(1).padStart(7)).join(" /")}   ×${(medium / small).toFixed(1)} ×${(large / medium).toFixed(1)}`,
  );
}
report("slowest 100k-character value (goal well under 50 ms)", `${worst100k.toFixed(1)} ms`);
report("largest 1M / 100k ratio (linear ≈ 10)", worstRatio.toFixed(1));
