/**
 * A CSV parser (RFC 4180: quoted fields, doubled quotes, separators and line breaks inside quotes, CRLF
 * or LF, an optional byte-order mark), because the Loghub files quote every log line that holds a comma
 * or a quote, and splitting on commas would shift the columns of exactly those lines.
 */

/** A CSV text that cannot be read, with the 1-based line where reading stopped. */
export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = "CsvError";
  }
}

/** The records of a CSV text, each a list of fields; throws {@link CsvError} on an unterminated quote. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let line = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // A record starts only where there is something to read: a final line break ends the text, not a row.
  let pending = i < text.length;
  while (i < text.length) {
    const char = text[i];
    if (char === '"' && field === "") {
      const start = line;
      i++;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote === -1) throw new CsvError(`a quoted field opened on line ${start} is never closed`, start);
        const chunk = text.slice(i, quote);
        field += chunk;
        line += countLineBreaks(chunk);
        i = quote + 1;
        if (text[i] !== '"') break;
        field += '"';
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== "," && next !== "\n" && next !== "\r")
        throw new CsvError(
          `line ${line}: a closing quote must end its field, found ${JSON.stringify(next)}`,
          line,
        );
      continue;
    }
    if (char === ",") {
      row.push(field);
      field = "";
      i++;
      continue;
    }
    if (char === "\n" || char === "\r") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += char === "\r" && text[i + 1] === "\n" ? 2 : 1;
      line++;
      pending = i < text.length;
      continue;
    }
    // A quote inside an unquoted field is read as itself, as common writers and readers do.
    const stop = char === '"' ? i + 1 : nextSpecial(text, i);
    field += text.slice(i, stop);
    i = stop;
  }
  if (pending) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const special = /[",\r\n]/g;

function nextSpecial(text: string, from: number): number {
  special.lastIndex = from;
  return special.exec(text)?.index ?? text.length;
}

function countLineBreaks(chunk: string): number {
  let count = 0;
  for (let i = 0; i < chunk.length; i++) {
    if (chunk[i] === "\n") count++;
    else if (chunk[i] === "\r" && chunk[i + 1] !== "\n") count++;
  }
  return count;
}
