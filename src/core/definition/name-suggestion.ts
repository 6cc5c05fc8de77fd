/**
 * The name a refused identifier was most likely meant to be, for the definition errors' fix:
 * `serviceBooking`, `service-booking` and `Service Booking` become `service_booking`. Only case and
 * separators change: a name with other characters (accents, symbols, another script) or one that would
 * still break the rule gets no suggestion, as a guess there could name something the author did not mean.
 */
export function snakeCaseSuggestion(name: string, rule: RegExp): string | undefined {
  // Longer than any rule allows: a suggestion would still be refused, and the scan below stays short.
  if (typeof name !== "string" || name.length > 200 || !/^[A-Za-z0-9_\-. ]+$/.test(name)) return undefined;
  const snake = name
    // "serviceBooking" → "service_Booking", "order2Id" → "order2_Id"
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    // "HTMLBody" → "HTML_Body": an acronym ends where a capitalised word begins
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[-. _]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
  return snake !== name && rule.test(snake) ? snake : undefined;
}

/** The fix to append to a naming rule's message: `; call it "service_booking"`, or nothing. */
export function suggestionText(name: string, rule: RegExp): string {
  const suggestion = snakeCaseSuggestion(name, rule);
  return suggestion === undefined ? "" : `; call it "${suggestion}"`;
}
