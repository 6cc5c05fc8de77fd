// Everything a terminal could take as a command (escape sequences, carriage returns that overwrite the
// line) except newlines and tabs, which layouts handle themselves.
const terminalControls = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** Stored or delivered text as a terminal shows it: control characters written out, never executed. */
export function printable(text: string): string {
  return text.replace(terminalControls, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
