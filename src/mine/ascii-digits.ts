const decimal = /\p{Nd}/u;
// A decimal digit other than ASCII's: most texts hold none, and are returned as they are, read once natively.
const otherDecimal = /[^\P{Nd}0-9]/u;
// Characters of the Basic Multilingual Plane outside ASCII: one UTF-16 unit each.
const otherBmp = /[\u0080-\ud7ff\ue000-\uffff]/g;

/**
 * Decimal digits of any script as ASCII digits ("٤٩" → "49", "०८" → "08"), everything else as it is,
 * in the same number of UTF-16 units, so places in the text stay where they were. Unicode encodes
 * decimal digits only in runs of ten, 0 to 9, so a digit's value is its distance from the start of its
 * run of digits, modulo ten. Digits beyond the Basic Multilingual Plane stay (compatibility folding
 * already makes the mathematical ones ASCII), as do numerals with no digit value (circled, dingbat).
 */
export function asciiDigits(text: string): string {
  if (!otherDecimal.test(text)) return text;
  return text.replace(otherBmp, (char) => {
    if (!decimal.test(char)) return char;
    const code = char.charCodeAt(0);
    let zero = code;
    while (code - zero < 60 && decimal.test(String.fromCharCode(zero - 1))) zero--;
    return String((code - zero) % 10);
  });
}
