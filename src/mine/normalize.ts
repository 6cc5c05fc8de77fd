/** Lower-case, every run of white space one space, trimmed: how text and values are compared. */
export function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}
