import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../../bench/mining/csv.js";

/** One record as a careful writer puts it: fields holding a quote, comma or line break quoted, quotes doubled. */
const written = (fields: readonly string[]) =>
  fields.map((field) => (/[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field)).join(",");

describe("parseCsv", () => {
  it.each([
    {
      name: "plain fields",
      text: "a,b\n1,2\n",
      rows: [
        ["a", "b"],
        ["1", "2"],
      ],
    },
    { name: "a comma inside quotes", text: 'x,"a, b",y', rows: [["x", "a, b", "y"]] },
    { name: "doubled quotes", text: '"say ""hi""",""', rows: [['say "hi"', ""]] },
    {
      name: "line breaks inside quotes",
      text: '"one\ntwo\r\nthree",z\r\nnext,row',
      rows: [
        ["one\ntwo\r\nthree", "z"],
        ["next", "row"],
      ],
    },
    {
      name: "CRLF, a byte-order mark, no final break",
      text: "\uFEFFa,b\r\n1,2",
      rows: [
        ["a", "b"],
        ["1", "2"],
      ],
    },
    { name: "empty fields and a blank line", text: ",,\n\n,x", rows: [["", "", ""], [""], ["", "x"]] },
    { name: "a quote inside an unquoted field", text: 'tag=a"b,c', rows: [['tag=a"b', "c"]] },
    {
      name: "old Mac line breaks",
      text: 'a,"b\rc"\r1,2',
      rows: [
        ["a", "b\rc"],
        ["1", "2"],
      ],
    },
    { name: "nothing", text: "", rows: [] },
  ])("reads $name", ({ text, rows }) => {
    expect(parseCsv(text)).toEqual(rows);
  });

  it("names the line of a quote that is never closed", () => {
    expect(() => parseCsv('a,b\n1,"open\nstill open')).toThrow(
      expect.objectContaining({
        name: "CsvError",
        line: 2,
        message: expect.stringMatching(/opened on line 2 is never closed/),
      }),
    );
  });

  it("refuses text after a closing quote, naming the line", () => {
    expect(() => parseCsv('ok\n"a"b,c')).toThrow(/line 2: a closing quote must end its field/);
  });

  it("reads back any records a careful writer wrote", () => {
    const field = fc.string({ unit: fc.constantFrom("a", " ", ",", '"', "\n", "\r", "é", "x") });
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { maxLength: 6 }), (records) => {
        expect(parseCsv(records.map(written).join("\n"))).toEqual(records);
      }),
    );
  });
});
