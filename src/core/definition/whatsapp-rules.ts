import { whatsappRules } from "./channels.js";
import type { Part } from "./text-parts.js";

/**
 * The WhatsApp review rules about how many variables a body holds, for the definition-time checks:
 * each returns what is wrong and how to fix it, or undefined.
 */

/** Each value tag of the body, sections included: every one becomes a numbered variable when approved. */
export function variableCount(parts: readonly Part[]): number {
  let count = 0;
  for (const part of parts) {
    if (part.type === "value") count += 1;
    else if (part.type === "section") count += variableCount(part.parts);
  }
  return count;
}

// Word segmentation by Unicode rules, so scripts written without spaces (Chinese, Thai) count their
// words too; emoji and punctuation are not words.
const wordSegmenter = new Intl.Segmenter("und", { granularity: "word" });

/** The words of the fixed text, in any script. */
export function fixedWordCount(literal: string): number {
  let count = 0;
  for (const segment of wordSegmenter.segment(literal)) if (segment.isWordLike) count += 1;
  return count;
}

/** Why the body has too many variables, in number or for its fixed text, or undefined. */
export function variableDensityProblem(parts: readonly Part[], literal: string): string | undefined {
  const variables = variableCount(parts);
  if (variables > whatsappRules.maxVariables)
    return `the body has ${variables} variables, over the ${whatsappRules.maxVariables} a WhatsApp template may hold; split the template`;
  const needed = whatsappRules.fixedWordsPerVariable * variables + 1;
  const words = fixedWordCount(literal);
  if (variables > 0 && words < needed)
    return `the body has ${variables} variable${variables === 1 ? "" : "s"} and ${words} word${words === 1 ? "" : "s"} of fixed text; WhatsApp refuses templates with too many variables for their length: write at least ${needed} words of fixed text or use fewer variables`;
  return undefined;
}

/**
 * Why a choice label cannot be a WhatsApp variable's value, or undefined. A label is written in code
 * and shown as a value, so the rule Meta sets for values holds for it: no line break, no tab, not
 * more than three spaces in a row. Values from records are cleaned of these when decided; a label is not.
 */
export function choiceLabelProblem(label: string): string | undefined {
  if (/[\t\n\r\u000B\u000C\u0085\u2028\u2029]| {4}/.test(label))
    return "holds a tab, a line break or four spaces in a row, which WhatsApp refuses in a variable; write it with single spaces";
  return undefined;
}
