const space = /\s/;

/**
 * Whether a line is blank: white space alone, as `trim` reads it (`\s`), or empty. Read only up to its
 * first other character, which for most lines is the first, and without making the trimmed line.
 */
export function isBlank(line: string): boolean {
  for (let at = 0; at < line.length; at++) {
    const code = line.charCodeAt(at);
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) continue;
    if (code < 0x80 || !space.test(line.charAt(at))) return false;
  }
  return true;
}
