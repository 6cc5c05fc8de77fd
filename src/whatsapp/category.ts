import type { Template } from "../core/definition/template-types.js";

/** Meta's template categories; formletter never exports the third, AUTHENTICATION. */
export type WhatsappCategory = "UTILITY" | "MARKETING";

// Words that make a text read as a promotion in the languages most catalogs are written in. A match
// makes the template MARKETING: declaring a promotion as UTILITY gets it re-categorised or refused.
const promotional =
  /\b(?:offer|offers|discount|sale|coupon|promo|promotion|deal|deals|free|save|rabatt|angebot|gratis|oferta|descuento|promoción|remise|promotion|soldes|sconto|offerta|desconto|promoção)\b|%\s*off\b/iu;

/**
 * The category a template is exported under, derived conservatively: UTILITY only when every text of
 * it refers to a record of the ticket in its body (a message about the recipient's own order, booking or
 * case, which is what Meta calls utility) and no text reads as a promotion; MARKETING otherwise, the
 * category Meta never refuses for being wrong. AUTHENTICATION is never derived: Meta writes those
 * templates' text itself (a code and a copy button), which a formletter template is not.
 */
export function whatsappCategory(template: Template, texts: readonly string[]): WhatsappCategory {
  const refShown = template.slots.some((slot) => slot.slot.kind === "ref");
  if (!refShown) return "MARKETING";
  return texts.some((text) => promotional.test(text)) ? "MARKETING" : "UTILITY";
}
