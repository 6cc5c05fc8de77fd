import type { Part } from "../core/definition/text-parts.js";

/** A template text as WhatsApp approves it: each value tag replaced by `{{n}}`, numbered in order. */
export interface NumberedText {
  /** The text with `{{1}}`, `{{2}}`… where the template has its tags. */
  readonly text: string;
  /** The template's tag at each number, `tags[0]` being `{{1}}`'s. */
  readonly tags: readonly string[];
}

/**
 * Numbers a compiled text's tags in the order they appear, from `first`. Every use is its own number,
 * even of a tag used twice, because Meta wants the numbers in sequence and each one with a sample. A
 * section makes the text differ from message to message, which one approved text cannot: that is
 * returned as the reason it cannot be exported.
 */
export function numberedText(parts: readonly Part[], first = 1): NumberedText | string {
  let text = "";
  const tags: string[] = [];
  for (const part of parts) {
    if (part.type === "text") text += part.text;
    else if (part.type === "value") {
      tags.push(part.tag);
      text += `{{${first + tags.length - 1}}}`;
    } else
      return `it has a section ({{#${part.tag}}}), so its text changes from message to message; WhatsApp approves one fixed text: define one template for each variant`;
  }
  return { text, tags };
}
