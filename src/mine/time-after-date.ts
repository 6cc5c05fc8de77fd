import type { ClockTime, DateTimeJoiners } from "./date-renderings.js";
import { isBoundary } from "./whole-words.js";

/**
 * A time of day written after a date ("3 March 2026 at 10:30", "03/03/2026 à 08h30", "3. März 2026 um
 * 10:30 Uhr"): masking takes the date and its time as one timestamp value.
 */

// A word for the hour written after a time of day ("10:30 Uhr", "10:30 horas").
const hourWord = / (?:uhr|hrs|hs|horas|heures|uur)(?![\p{L}\p{N}])/uy;

/** Where the word for the hour written at `at`, after a time of day, ends; `at` when none is there. */
export function hourWordEnd(lowered: string, at: number): number {
  hourWord.lastIndex = at;
  return hourWord.test(lowered) ? hourWord.lastIndex : at;
}

/**
 * Where the word for the hour after a found value ends, when the value is a date with a time of day,
 * written with its time as a locale joins them ("3. März 2026 um 10:30" then "Uhr"); -1 otherwise.
 */
export function hourWordAfter(
  lowered: string,
  at: number,
  clocksOf: (placeholder: string) => readonly ClockTime[],
  placeholder?: string,
): number {
  // A time ends the value: "10:30", "9h30", "10.30".
  const code = lowered.charCodeAt(at - 1);
  if (code < 0x30 || code > 0x39 || !":h.".includes(lowered.charAt(at - 3))) return -1;
  const end = hourWordEnd(lowered, at);
  return end === at || placeholder === undefined || clocksOf(placeholder).length === 0 ? -1 : end;
}

/** Whether a digit is among the few characters after `at`: where a time of day may follow a date. */
export function digitSoonAfter(lowered: string, at: number): boolean {
  const code = lowered.charCodeAt(at);
  if (code !== 0x20 && code !== 0x2c) return false;
  for (let next = at + 1; next < lowered.length && next <= at + 14; next++) {
    const unit = lowered.charCodeAt(next);
    if (unit >= 0x30 && unit <= 0x39) return true;
  }
  return false;
}

// A time of day as people write it after a date: hour, then minutes after ":" or "." ("10:30", "10.30"),
// then a word for the hour or the half of the day ("Uhr", "am"); where a locale writes it so, with an
// "h" for the colon or the word ("9h30", "10 h 30", "10h").
const timeOfDay =
  /(\d{1,2})(?:(?::|\.)(\d{2})(?::\d{2})?)?(?: ?(a\. ?m\.|am|p\. ?m\.|pm|uhr|hrs|hs|horas|hours|heures|uur)(?![\p{L}\p{N}]))?/uy;
const hourTimeOfDay =
  /(\d{1,2})(?:(?::|\.|h| h )(\d{2})(?::\d{2})?)?(?: ?(a\. ?m\.|am|p\. ?m\.|pm|uhr|h|hrs|hs|horas|hours|heures|uur)(?![\p{L}\p{N}]))?/uy;

/**
 * Where a time of day that is one of `timesOf()`, written after a date found ending at `at` and joined to it
 * by one of `joiners` ("at 10:30", "à 08h30", "um 10:30 Uhr", "a las 10:30"), ends; -1 when none is. A
 * time after a space or a comma alone is not taken: the locales' own forms hold those the date has, and
 * a number after a date may say something else. A time with no minutes is taken only with its word
 * ("10 Uhr", "10am").
 */
export function timeAfter(
  lowered: string,
  at: number,
  joiners: DateTimeJoiners,
  timesOf: () => readonly ClockTime[],
): number {
  let from = at;
  if (lowered.charCodeAt(from) === 0x2c) from++;
  if (lowered.charCodeAt(from) !== 0x20) return -1;
  from++;
  const joined = from;
  for (const joiner of joiners.words)
    if (lowered.startsWith(joiner, from) && lowered.charCodeAt(from + joiner.length) === 0x20) {
      from += joiner.length + 1;
      break;
    }
  if (from === joined) return -1;
  const time = joiners.hourH ? hourTimeOfDay : timeOfDay;
  time.lastIndex = from;
  const match = time.exec(lowered);
  if (match === null) return -1;
  const end = from + match[0].length;
  if (!isBoundary(lowered, end)) return -1;
  const hour = Number(match[1]);
  const minute = match[2] === undefined ? undefined : Number(match[2]);
  const word = match[3];
  if (minute === undefined && word === undefined) return -1;
  const half =
    word === undefined ? undefined : word.startsWith("a") ? "am" : word.startsWith("p") ? "pm" : undefined;
  const named = timesOf().some((time) => {
    if ((minute ?? 0) !== time.minute) return false;
    if (half !== undefined)
      return hour >= 1 && hour <= 12 && (hour % 12) + (half === "pm" ? 12 : 0) === time.hour;
    return hour === time.hour || (time.hour > 12 && hour === time.hour - 12);
  });
  return named ? end : -1;
}
