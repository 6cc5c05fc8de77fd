/** What a cluster's words said it did, by kind: the words of this module's lists, never the history's. */
export type DraftAction = "refund" | "cancellation" | "payment" | "authorisation";

/** The effect a drafted template is declared with, and why: what a reviewer reads first. */
export type DraftEffect =
  | {
      readonly effect: "irreversible";
      /** What made it irreversible: a money slot, and the kinds of action its words named. */
      readonly because: { readonly money: boolean; readonly actions: readonly DraftAction[] };
    }
  | { readonly effect: "informational" };

/**
 * Stems of words that name money moving or an action that cannot be called back, in English, German,
 * French and Spanish (and their neighbours where the stem is shared: Italian, Portuguese, Dutch), on
 * words folded to lower-case ASCII letters. `anywhere` stems match inside a word (German compounds:
 * "Teilrückerstattung"); `atStart` stems, too short to match inside a word, only at its start ("pay"
 * finds "payout" and "paid").
 */
const stems: Readonly<Record<DraftAction, { anywhere: readonly string[]; atStart: readonly string[] }>> = {
  refund: {
    anywhere: [
      "refund",
      "reimburs",
      "erstatt",
      "gutschrift",
      "rembours",
      "reembols",
      "devoluci",
      "rimbors",
      "terugbetal",
    ],
    atStart: [],
  },
  cancellation: {
    anywhere: [
      "cancel",
      "storn",
      "kundig",
      "kuendig",
      "widerruf",
      "rucktritt",
      "ruecktritt",
      "annul",
      "anular",
      "anulaci",
      "resili",
      "rescind",
      "rescisi",
      "terminat",
      "revok",
      "revoc",
    ],
    atStart: [],
  },
  payment: {
    anywhere: [
      "payment",
      "payout",
      "zahlung",
      "bezahl",
      "uberweis",
      "ueberweis",
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
    ],
    atStart: ["pay", "paid", "pago", "pagar", "pagad", "pague", "zahl", "charge", "debit", "credit"],
  },
  authorisation: {
    anywhere: ["authori", "autori", "genehmig", "freigabe", "freigeb", "approv", "aprob", "bewillig"],
    atStart: [],
  },
};

const actions = Object.keys(stems) as DraftAction[];

/**
 * The effect a template drafted from a cluster is declared with, conservatively: a cluster that shows
 * money, or whose text or choice words name a refund, a cancellation, a payment or an authorisation, is
 * `irreversible` (so it needs a person's approval); every other one `informational`, for the reviewer to
 * raise. History shows what was said, not what it caused, so the draft errs on the side of a person.
 *
 * @example
 * import { draftEffect } from "formletter/mine";
 * draftEffect(["Please refund the buyer"], { money: false });
 * // { effect: "irreversible", because: { money: false, actions: ["refund"] } }
 */
export function draftEffect(texts: readonly string[], shows: { readonly money: boolean }): DraftEffect {
  const found = new Set<DraftAction>();
  for (const text of texts) {
    for (const raw of text.slice(0, 20_000).match(/[\p{L}\p{M}]+/gu) ?? []) {
      const word = foldWord(raw);
      if (word.length > 40) continue;
      for (const action of actions) {
        const { anywhere, atStart } = stems[action];
        if (anywhere.some((stem) => word.includes(stem)) || atStart.some((stem) => word.startsWith(stem)))
          found.add(action);
      }
    }
  }
  if (!shows.money && found.size === 0) return { effect: "informational" };
  return {
    effect: "irreversible",
    because: { money: shows.money, actions: actions.filter((action) => found.has(action)) },
  };
}

/** Lower case, accents and umlauts dropped ("Rückerstattung" → "ruckerstattung"), ß as "ss". */
function foldWord(word: string): string {
  return word.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/ß/g, "ss");
}
