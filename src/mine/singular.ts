/**
 * A collection's name as one of its records is called, for placeholder names: "orders" → "order",
 * "categories" → "category", "boxes" → "box", "statuses" → "status", "analyses" → "analysis", "people" →
 * "person", "children" → "child"; a name that is singular already or names no count ("status",
 * "address", "staff", "data", "news") stays as it is. Only the last word of a camelCase or snake_case
 * name changes ("orderStatuses" → "orderStatus", "sales_people" → "sales_person"), with its case kept.
 */
export function singular(collection: string): string {
  const word = collection.slice(lastWordStart(collection));
  if (word.length === 0) return collection;
  const head = collection.slice(0, collection.length - word.length);
  const lower = word.toLowerCase();
  const one = singularWord(lower);
  if (one === lower) return collection;
  const cased =
    word === word.toUpperCase() && word.length > 1
      ? one.toUpperCase()
      : word[0] !== lower[0]
        ? one.charAt(0).toUpperCase() + one.slice(1)
        : one;
  return head + cased;
}

/**
 * Where the last word of a name begins: after its last "_", "-" or digit, or at its last capital that
 * follows a small letter ("lineItems" → 4).
 */
function lastWordStart(name: string): number {
  for (let at = name.length - 1; at > 0; at--) {
    const unit = name.charCodeAt(at);
    if (unit === 0x5f || unit === 0x2d || (unit >= 0x30 && unit <= 0x39)) return at + 1;
    const previous = name.charCodeAt(at - 1);
    if (unit >= 0x41 && unit <= 0x5a && previous >= 0x61 && previous <= 0x7a) return at;
  }
  return 0;
}

// Plurals no rule makes, and names that are no plural though they end as one: each read as written here.
const irregular: ReadonlyMap<string, string> = new Map([
  ["people", "person"],
  ["persons", "person"],
  ["children", "child"],
  ["men", "man"],
  ["women", "woman"],
  ["feet", "foot"],
  ["teeth", "tooth"],
  ["mice", "mouse"],
  ["geese", "goose"],
  ["oxen", "ox"],
  ["criteria", "criterion"],
  ["phenomena", "phenomenon"],
  ["indices", "index"],
  ["matrices", "matrix"],
  ["vertices", "vertex"],
  ["appendices", "appendix"],
  ["knives", "knife"],
  ["wives", "wife"],
  ["lives", "life"],
  ["shelves", "shelf"],
  ["halves", "half"],
  ["wolves", "wolf"],
  ["thieves", "thief"],
  ["quizzes", "quiz"],
  ["crises", "crisis"],
  ["axes", "axis"],
  ["bases", "base"],
  ["cases", "case"],
  ["news", "news"],
  ["series", "series"],
  ["species", "species"],
  ["means", "means"],
  ["physics", "physics"],
  ["economics", "economics"],
  ["analytics", "analytics"],
  ["logistics", "logistics"],
  ["statistics", "statistics"],
  ["sms", "sms"],
  ["gps", "gps"],
  ["dns", "dns"],
  ["os", "os"],
  ["buses", "bus"],
  ["menus", "menu"],
  ["excuses", "excuse"],
  ["focuses", "focus"],
  ["gas", "gas"],
  ["canvas", "canvas"],
  ["alias", "alias"],
  ["atlas", "atlas"],
  ["yes", "yes"],
]);

// "-us" plurals that keep the "-us" (statuses, bonuses, buses, campuses, viruses, censuses): after a
// consonant; after a vowel or most others the "-e" is the word's own (houses, causes, abuses).
const usPlural = /[nprst]uses$/;
// Greek plurals in "-ses" of words in "-sis": analyses, diagnoses, hypotheses, syntheses, theses.
const sisPlural = /(?:ys|gnos|thes|ntes|rthes)es$/;

function singularWord(word: string): string {
  const known = irregular.get(word);
  if (known !== undefined) return known;
  // Singular already: "status", "analysis", "address", and words of two letters or fewer.
  if (word.length <= 2 || /(?:us|is|ss)$/.test(word)) return word;
  if (sisPlural.test(word)) return `${word.slice(0, -2)}is`;
  if (usPlural.test(word)) return word.slice(0, -2);
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}
