import { isBlank } from "./blank.js";
import { Phrases, wordsOf } from "./words.js";

/**
 * Earlier messages inside a mail, found by the conventions clients write them in: lines with quote
 * markers (`>`, nested `> >`, `|`), an attribution line above them ("On … wrote:", "Am … schrieb …:",
 * "Le … a écrit :", possibly wrapped over two lines), and the blocks that start an earlier message not
 * marked line by line (Outlook's "-----Original Message-----" and its translations, a line of
 * underscores, a "From:/Sent:/To:/Subject:" header block in the client's language, a forwarded-message
 * marker). Every check reads a bounded part of a line, so the whole is linear in the text.
 */
export interface QuoteCut {
  /** Lines from here on are an earlier message not marked line by line (`lines.length` when none). */
  readonly end: number;
  /** Per line: whether it is quoted or the attribution of quoted lines. */
  readonly quotedLine: readonly boolean[];
  /** Whether any earlier message was found. */
  readonly quoted: boolean;
}

// Longer lines are not headers or separators; checks read no further, so a hostile line costs no more.
const maxHeader = 300;

// The first words of an attribution line ("On Tue, 3 Mar 2026 …", "Am 03.03.2026 …", "Le mar. 3 mars …").
const openers = new Phrases([
  "on",
  "am",
  "le",
  "el",
  "op",
  "il",
  "il giorno",
  "in data",
  "em",
  "no dia",
  "den",
  "på",
  "w dniu",
  "dnia",
]);

// The verb of an attribution, near its end: "wrote:", "schrieb Anna:", "a écrit :", "escribió:", "ha scritto:".
const verbs = new Set([
  "wrote",
  "writes",
  "schrieb",
  "schreibt",
  "schreef",
  "geschreven",
  "écrit",
  "ecrit",
  "escribió",
  "escribio",
  "escrito",
  "scritto",
  "scrive",
  "escreveu",
  "skrev",
  "kirjoitti",
  "napisał",
  "napisała",
  "napisal",
  "pisze",
  "написал",
  "написала",
  "napsal",
  "napsala",
  "napísal",
  "napísala",
  "yazdı",
  "írta",
  "scris",
  // Webmail that names the writer before the quote: "Quoting Anna <…>:", "Zitat von Anna <…>:".
  "quoting",
  "zitat",
]);

// What Outlook-style separators and forwarded-message markers say between their dashes, or before a colon.
const separators = new Set([
  "original message",
  "original-nachricht",
  "originalnachricht",
  "ursprüngliche nachricht",
  "message d'origine",
  "message d’origine",
  "message original",
  "mensaje original",
  "mensagem original",
  "oorspronkelijk bericht",
  "origineel bericht",
  "messaggio originale",
  "ursprungligt meddelande",
  "oprindelig meddelelse",
  "opprinnelig melding",
  "wiadomość oryginalna",
  "forwarded message",
  "weitergeleitete nachricht",
  "message transféré",
  "mensaje reenviado",
  "mensagem encaminhada",
  "doorgestuurd bericht",
  "messaggio inoltrato",
  "vidarebefordrat meddelande",
  "begin forwarded message",
  "anfang der weitergeleiteten nachricht",
  "début du message réexpédié",
  "début du message transféré",
  "inicio del mensaje reenviado",
  "comienzo del mensaje reenviado",
  "início da mensagem encaminhada",
  "início da mensagem reencaminhada",
  "inizio messaggio inoltrato",
  "begin doorgestuurd bericht",
]);

// Header fields of a quoted message, in the languages clients write them in.
const fromFields = new Set([
  "from",
  "von",
  "de",
  "van",
  "da",
  "från",
  "fra",
  "od",
  "от",
  "absender",
  "expéditeur",
  "lähettäjä",
  "kimden",
  "feladó",
  "de la",
  "από",
  "від",
  "差出人",
  "发件人",
  "寄件者",
]);
const otherFields = new Set([
  "sent",
  "date",
  "to",
  "cc",
  "subject",
  "reply-to",
  "gesendet",
  "datum",
  "an",
  "betreff",
  "kopie",
  "envoyé",
  "envoye",
  "à",
  "a",
  "objet",
  "enviado",
  "enviado el",
  "enviada em",
  "fecha",
  "para",
  "asunto",
  "verzonden",
  "aan",
  "onderwerp",
  "inviato",
  "data",
  "oggetto",
  "assunto",
  "skickat",
  "till",
  "ämne",
  "sendt",
  "til",
  "emne",
  "wysłano",
  "do",
  "temat",
  "отправлено",
  "кому",
  "тема",
  "odesláno",
  "odoslané",
  "komu",
  "předmět",
  "predmet",
  "lähetetty",
  "vastaanottaja",
  "aihe",
  "gönderildi",
  "gönderme tarihi",
  "kime",
  "konu",
  "tarih",
  "elküldve",
  "címzett",
  "tárgy",
  "trimis",
  "către",
  "subiect",
  "στάλθηκε",
  "προς",
  "θέμα",
  "надіслано",
  "送信日時",
  "宛先",
  "件名",
  "发送时间",
  "收件人",
  "主题",
]);

/** Whether a line is marked as quoted: `>` or `|` (nested, spaced or not) before its text. */
export function isQuoteMarked(line: string): boolean {
  let at = 0;
  let code = line.charCodeAt(0);
  // Spaces and tabs before the marker.
  while (code === 0x20 || code === 0x09) code = line.charCodeAt(++at);
  if (code === 0x3e) return true;
  // "|" also starts a table row ("| a | b |"); a quoted line does not end with one.
  return code === 0x7c && !line.trimEnd().endsWith("|");
}

/**
 * Splits a mail's lines into the writer's own and the earlier messages below or among them. `colons`
 * tells which colons the mail holds at all, when known: "ascii" (":" only), "none", or "any".
 */
export function cutQuotes(lines: readonly string[], colons: "none" | "ascii" | "any" = "any"): QuoteCut {
  const quotedLine = lines.map(isQuoteMarked);
  let quoted = quotedLine.includes(true);
  const holdsColon = colons === "none" ? () => false : colons === "ascii" ? holdsAsciiColon : holdsAnyColon;
  // Whether the line after the one being read holds a colon: each line is tested once.
  let colonNext = lines.length > 0 && holdsColon(lines[0] as string);
  for (let i = 0; i < lines.length; i++) {
    const colon = colonNext;
    colonNext = i + 1 < lines.length && holdsColon(lines[i + 1] as string);
    if (quotedLine[i]) continue;
    // A separator opens with a decoration; a header field, a forward marker and an attribution (on its
    // line or on the next, when wrapped) hold a colon: most lines are none of these.
    if (!colon && !colonNext && !isDecorated(lines[i] as string)) continue;
    if (startsEarlierMessage(lines, i)) return { end: i, quotedLine, quoted: true };
    const header = attributionAt(lines, i);
    if (header === undefined) continue;
    const next = nextText(lines, i + header.lines);
    if (next !== -1 && quotedLine[next]) {
      // The attribution of the quoted lines below it: dropped with them (the writer may answer below).
      for (let j = i; j < i + header.lines; j++) quotedLine[j] = true;
      quoted = true;
      i += header.lines - 1;
      if (header.lines === 2) colonNext = i + 1 < lines.length && holdsColon(lines[i + 1] as string);
    } else if (header.strong) {
      // An attribution over an earlier message not marked line by line: all below it is that message.
      return { end: i, quotedLine, quoted: true };
    }
  }
  return { end: lines.length, quotedLine, quoted };
}

/**
 * The first line with text at or after `from`, or -1. Read only below an attribution, which is a line
 * with text itself: each run of blank lines is read at most twice in all (below a wrapped attribution's
 * two lines, and below its second line alone).
 */
function nextText(lines: readonly string[], from: number): number {
  for (let at = from; at < lines.length; at++) if (!isBlank(lines[at] as string)) return at;
  return -1;
}

/**
 * An attribution line at `i`, alone or wrapped onto the next line. `strong` when it names a date
 * opener or an address, so it is one even with no quote marker below it; otherwise ("Anna wrote:")
 * it counts only above quoted lines.
 */
function attributionAt(lines: readonly string[], i: number): { lines: 1 | 2; strong: boolean } | undefined {
  const line = lines[i] as string;
  if (line.length > maxHeader) return undefined;
  const alone = attribution(line);
  if (alone !== undefined) return { lines: 1, strong: alone };
  const next = lines[i + 1];
  if (next === undefined || next.length > maxHeader || line.trimEnd().endsWith(":")) return undefined;
  const nextEnd = next.trimEnd();
  if (!nextEnd.endsWith(":") && !nextEnd.endsWith("：")) return undefined;
  // Clients wrap a long attribution, often inside the address: "… Anna Schmidt <" / "anna@x.example> wrote:".
  const words = wordsOf(line, 4);
  if (openers.prefixOf(words) === 0 && !line.includes("@") && !line.includes("<")) return undefined;
  const joined = attribution(`${line.trimEnd()} ${next.trimStart()}`);
  return joined === undefined ? undefined : { lines: 2, strong: joined };
}

/** Whether `line` is an attribution (undefined when not), and whether a strong one. */
function attribution(line: string): boolean | undefined {
  const text = line.trimEnd();
  if (!text.endsWith(":") && !text.endsWith("：")) return undefined;
  const words = wordsOf(text, 200);
  let verb = -1;
  for (let w = Math.max(0, words.length - 8); w < words.length; w++) {
    const word = (words[w] as { text: string }).text;
    // "napisał(a):", "написал(а):": the verb is the letters before the bracket.
    if (verbs.has(word) || (word.includes("(") && verbs.has(word.replace(/\(.*$/, "")))) verb = w;
  }
  // A client in a language without its verb here still writes the date, the time and the address:
  // "пн, 2 мар. 2026 г. в 10:12, Анна <anna@x.example>:", "2026年3月2日(月) 10:12 Anna <anna@x.example>:".
  if (verb === -1) return datedAddress(text) ? true : undefined;
  const opener =
    openers.prefixOf(words) > 0 || (verb + 1 < words.length && openers.prefixOf(words, verb + 1) > 0);
  return opener || text.includes("@");
}

/** Whether line `i` starts an earlier message that is not marked line by line. */
function startsEarlierMessage(lines: readonly string[], i: number): boolean {
  const line = (lines[i] as string).trim();
  if (line.length > maxHeader || line === "") return false;
  // Outlook's rule above a reply: a line of underscores.
  if (line.length >= 10 && line.charCodeAt(0) === 0x5f && /^_+$/.test(line)) return true;
  // Separators are set off by dashes or the like, forward markers end with a colon.
  if ((decoration.includes(line.charAt(0)) || line.endsWith(":")) && separators.has(undecorated(line)))
    return true;
  if (!fromFields.has(fieldName(line) ?? "")) return false;
  // A "From:" line opens a header block when two more fields of one follow it, on the lines below or on
  // the same line, as some clients flatten it ("From: Anna Sent: Tuesday To: Support Subject: …").
  let fields = 0;
  const words = wordsOf(line, 80);
  for (const [w, word] of words.entries()) {
    const next = words[w + 1];
    const named = word.last === ":" || (next !== undefined && next.text === "" && next.last === ":");
    if (w > 0 && named && otherFields.has(word.text)) fields++;
  }
  for (let j = i + 1; j < Math.min(lines.length, i + 8) && fields < 2; j++) {
    if (otherFields.has(fieldName((lines[j] as string).trim()) ?? "")) fields++;
  }
  return fields >= 2;
}

const decoration = "-_=*~ \t:";
// A line whose text opens with a decoration other than the colon (`\s` is what `trim` takes off).
const decorated = /^\s*[-_=*~]/;

/** Whether a line's text opens with a decoration other than the colon ({@link decorated}). */
function isDecorated(line: string): boolean {
  const code = line.charCodeAt(0);
  // Most lines open with a letter: read without the expression.
  if (code > 0x20 && code < 0x7f)
    return code === 0x2d || code === 0x5f || code === 0x3d || code === 0x2a || code === 0x7e;
  return decorated.test(line);
}

function holdsAnyColon(line: string): boolean {
  return line.includes(":") || line.includes("：");
}

function holdsAsciiColon(line: string): boolean {
  return line.includes(":");
}

/** A separator's words: dashes, underscores, equals signs, asterisks and a final colon taken off. */
function undecorated(line: string): string {
  let from = 0;
  let to = line.length;
  while (from < to && decoration.includes(line.charAt(from))) from++;
  while (to > from && decoration.includes(line.charAt(to - 1))) to--;
  return line.slice(from, to).replace(/\s+/g, " ").toLowerCase();
}

/** The name of a header field line ("Gesendet: …", "*From:* …", "Envoyé : …"), lower-cased. */
function fieldName(line: string): string | undefined {
  const text = line.startsWith("*") ? line.slice(1) : line;
  let colon = -1;
  for (let at = 0; at < 24 && at < text.length; at++) {
    const char = text.charAt(at);
    if (char === ":" || char === "：") {
      colon = at;
      break;
    }
  }
  if (colon <= 0) return undefined;
  return text.slice(0, colon).replace(/\*+$/, "").trim().replace(/\s+/g, " ").toLowerCase();
}

const year = /(?:^|\D)(?:19|20)\d\d(?:\D|$)/;
const clockTime = /(?:^|\D)\d{1,2}[:.]\d\d(?:\D|$)/;
const bracketedAddress = /[<([][^\s<>()[\]@]+@[^\s<>()[\]]+[>)\]]/;

/** Whether an attribution-shaped line holds a bracketed address, a year and a time of day. */
function datedAddress(text: string): boolean {
  return bracketedAddress.test(text) && year.test(text) && clockTime.test(text);
}
