/** A line cut from a file's bytes: its text, or why it cannot be read. */
export type CutLine = string | { readonly problem: string };

const newline = 0x0a;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Cuts JSON Lines files into lines from their bytes, chunk by chunk, rather than by readline: each line
 * is checked as UTF-8 on its own (readline would turn bad bytes into U+FFFD silently), and a line over
 * `maxLineBytes` is reported as a problem as it streams by instead of being held whole. Synchronous per
 * chunk, so a caller makes no promise per line: memory stays at one chunk plus one line.
 */
export class LineCutter {
  readonly #maxLineBytes: number;
  readonly #tooLong: { readonly problem: string };
  readonly #pieces: Buffer[] = [];
  #pending = 0;
  #overlong = false;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
    this.#tooLong = { problem: `longer than ${maxLineBytes} bytes` };
  }

  /** Calls `line` for every line `chunk` completes, in order. */
  push(chunk: Buffer, line: (cut: CutLine) => void): void {
    let from = 0;
    for (let end = chunk.indexOf(newline); end !== -1; end = chunk.indexOf(newline, from)) {
      const part = chunk.subarray(from, end);
      from = end + 1;
      if (this.#overlong || this.#pending + part.length > this.#maxLineBytes) line(this.#tooLong);
      else if (this.#pending === 0) line(decode(part));
      else line(decode(Buffer.concat([...this.#pieces, part], this.#pending + part.length)));
      this.#pieces.length = 0;
      this.#pending = 0;
      this.#overlong = false;
    }
    const rest = chunk.subarray(from);
    if (this.#overlong || rest.length === 0) return;
    if (this.#pending + rest.length > this.#maxLineBytes) {
      this.#overlong = true;
      this.#pieces.length = 0;
      this.#pending = 0;
    } else {
      // A copy: the stream may reuse its buffer.
      this.#pieces.push(Buffer.from(rest));
      this.#pending += rest.length;
    }
  }

  /** Calls `line` for the last line, when the file does not end with a line break. */
  end(line: (cut: CutLine) => void): void {
    if (this.#overlong) line(this.#tooLong);
    else if (this.#pending > 0) line(decode(Buffer.concat(this.#pieces, this.#pending)));
    this.#pieces.length = 0;
    this.#pending = 0;
    this.#overlong = false;
  }
}

/** A line's text without its "\r", or a problem when it is not UTF-8. */
function decode(raw: Buffer): CutLine {
  const end = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.length - 1 : raw.length;
  try {
    return utf8.decode(raw.subarray(0, end));
  } catch {
    return { problem: "not valid UTF-8" };
  }
}
