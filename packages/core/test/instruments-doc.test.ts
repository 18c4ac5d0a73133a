// docs/instruments.md must say what the catalogue and the calendar hold: its generated tables are
// compared with a fresh rendering, and every shipped future needs a row in the hand-written
// specification tables (where each number's source is cited).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DOC_PATH, END_MARKER, renderCatalogue, START_MARKER } from "../scripts/instruments-doc.ts";
import { FUTURES, SHIPPED_INSTRUMENTS } from "../src/catalogue.ts";

const doc = readFileSync(DOC_PATH, "utf8");

describe("docs/instruments.md", () => {
  it("holds the catalogue tables as the data renders them", () => {
    const start = doc.indexOf(START_MARKER);
    const end = doc.indexOf(END_MARKER);
    expect(start, "the generated part's start marker").toBeGreaterThanOrEqual(0);
    // On a difference: pnpm exec tsx packages/core/scripts/instruments-doc.ts
    expect(doc.slice(start, end + END_MARKER.length)).toBe(renderCatalogue());
  });

  it("names every shipped key in the generated tables", () => {
    for (const spec of SHIPPED_INSTRUMENTS) expect(doc).toContain(`\`${spec.key}\``);
  });

  it("cites a contract specification for every shipped future", () => {
    const cited = doc
      .slice(doc.indexOf("## Contract specifications"), doc.indexOf("## Adding an instrument"))
      .split("\n")
      .map((line) => /^\| `([A-Z0-9]+)` /.exec(line)?.[1])
      .filter(Boolean);
    expect([...cited].sort()).toEqual(Object.keys(FUTURES).sort());
  });
});
