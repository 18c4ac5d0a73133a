import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell } from "./csv.ts";

/** The cells a spreadsheet sees when it splits an unquoted line on `separator`. */
const cellsSplitOn = (text: string, separator: string) =>
  text.split(separator).map((cell) => cell.trimStart());

const FORMULA = /^[=+\-@\t\r]/;

describe("csvCell", () => {
  it("quotes every text and doubles its quotes", () => {
    expect(csvCell("Gold")).toBe('"Gold"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("a,b\r\nc")).toBe('"a,b\r\nc"');
    expect(csvCell("")).toBe('""');
  });

  it("defuses a formula start at the start and after every separator a spreadsheet may split on", () => {
    expect(csvCell("=1+1")).toBe(`"'=1+1"`);
    expect(csvCell("x;=cmd|' /C calc'!A0;")).toBe(`"x;'=cmd|' /C calc'!A0;"`);
    expect(csvCell("a,+1;-2\t@3|=4")).toBe(`"a,'+1;'-2\t'@3|'=4"`);
    expect(csvCell("a;  =b")).toBe(`"a;  '=b"`);
    expect(csvCell("a\t\t=b")).toBe(`"a\t'\t'=b"`);
    expect(csvCell("Gold -5 = fine")).toBe('"Gold -5 = fine"');
  });

  it("leaves no cell that starts a formula, whatever the text and the separator", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom("=", "+", "-", "@", "\t", "\r", ",", ";", "|", " ", "a", "1", '"'),
        }),
        (text) => {
          const cell = csvCell(text);
          // Read as a spreadsheet splitting on any separator, ignoring our quotes.
          const bare = cell.slice(1, -1).replaceAll('""', '"');
          for (const separator of [",", ";", "\t", "|"])
            for (const piece of cellsSplitOn(bare, separator)) expect(piece).not.toMatch(FORMULA);
        },
      ),
    );
  });

  it("writes numbers bare, with fixed decimals when given; missing or not finite is empty", () => {
    expect(csvCell(-1234.120030979946, 2)).toBe("-1234.12");
    expect(csvCell(0.845, 4)).toBe("0.8450");
    expect(csvCell(42)).toBe("42");
    expect(csvCell(Number.NaN)).toBe("");
    expect(csvCell(Number.POSITIVE_INFINITY, 2)).toBe("");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });
});
