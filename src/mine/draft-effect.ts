/** The effect a drafted template is declared with, and why: what a reviewer reads first. */
export type DraftEffect =
  | {
      readonly effect: "irreversible";
      /**
       * What made it irreversible: a money slot, or the stems (of this module's list, never the history's
       * own words) the cluster's words began with or held.
       */
      readonly because: { readonly money: boolean; readonly stems: readonly string[] };
    }
  | { readonly effect: "informational" };

/**
 * Stems of words that name money moving or an action that cannot be called back, in English, German,
 * French and Spanish (and their neighbours where the stem is shared: Italian, Portuguese, Dutch).
 * Long stems match anywhere in a word (German compounds: "Teilrückerstattung"); short ones only at its
 * start, so "pay" finds "payout" and "paid" but a word merely holding the letters is not read as one.
 */
const anywhere = [
  // refunds and reimbursements
  "refund",
  "reimburs",
  "erstatt",
  "gutschrift",
  "rembours",
  "reembols",
  "devoluci",
  "rimbors",
  "terugbetal",
  // cancellation
  "cancel",
  "cancell",
  "storn",
  "kundig",
  "annul",
  "anular",
  "anulaci",
  "resili",
  "rescind",
  "rescisi",
  // payment
  "payment",
  "payout",
  "zahlung",
  "bezahl",
  "uberweis",
  "paiement",
  "virement",
  "versement",
  "abono",
  "pagament",
  "compensat",
  "compensac",
  "entschadig",
  "indemni",
  "chargeback",
  // authorisation
  "authori",
  "autori",
  "genehmig",
  "freigabe",
  "freigeb",
  "approv",
  "aprob",
  "bewillig",
] as const;

const atStart = [
  "pay",
  "paid",
  "pago",
  "pagar",
  "pagad",
  "pague",
  "zahl",
  "charge",
  "debit",
  "credit",
] as const;

/**
 * The effect a template drafted from a cluster is declared with, conservatively: a cluster that shows
 * money, or whose text or choice words name a refund, a cancellation, a payment or an authorisation, is
 * `irreversible` (so it needs a person's approval); every other one `informational`, for the reviewer to
 * raise. History shows what was said, not what it caused, so the draft errs on the side of a person.
 *
 * @example
 * import { draftEffect } from "formletter/mine";
 * draftEffect(["Please refund the buyer"], { money: false }); // { effect: "irreversible", ... }
 */
export function draftEffect(texts: readonly string[], shows: { readonly money: boolean }): DraftEffect {
  const stems = new Set<string>();
  for (const text of texts) {
    for (const raw of text.slice(0, 20_000).match(/[\p{L}\p{M}]+/gu) ?? []) {
      const word = foldWord(raw);
      if (word.length > 40) continue;
      for (const stem of anywhere) if (word.includes(stem)) stems.add(stem);
      for (const stem of atStart) if (word.startsWith(stem)) stems.add(stem);
    }
  }
  if (!shows.money && stems.size === 0) return { effect: "informational" };
  return { effect: "irreversible", because: { money: shows.money, stems: [...stems].sort().slice(0, 5) } };
}

/** Lower case, accents and umlauts dropped ("Rückerstattung" → "ruckerstattung"), ß as "ss". */
function foldWord(word: string): string {
  return word.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/ß/g, "ss");
}
