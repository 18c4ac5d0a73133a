// The examples are scripts, not core; this test keeps the output README.md shows for them true.
import { describe, expect, it } from "vitest";
import { definitionOf, formatPoints, parseLeg, replayFormula } from "../examples/formula-replay.ts";
import { backtestReplay, formatReport, parseReplayCsv } from "../examples/replay-csv.ts";

// core has no Node types (src must not do I/O); reading the example file is this test's edge.
declare const process: {
  getBuiltinModule(id: "node:fs"): { readFileSync(path: string, encoding: "utf8"): string };
};
const here = (import.meta as { dirname?: string }).dirname ?? ".";
const goldCrossing = process
  .getBuiltinModule("node:fs")
  .readFileSync(`${here}/../examples/gold-crossing.csv`, "utf8");

const goldCalendar = process
  .getBuiltinModule("node:fs")
  .readFileSync(`${here}/../examples/gold-calendar.csv`, "utf8");

describe("examples/spread-formula", () => {
  it("prints the README's calendar spread for gold-calendar.csv", () => {
    const definition = definitionOf("a - b", ["a=GOLD", "b=GOLD@next"].map(parseLeg));
    expect(formatPoints(replayFormula(parseReplayCsv(goldCalendar), definition), 2)).toEqual([
      "20/11/2026, 2:45:00 pm IST  BUY —  SELL —  mid —",
      "20/11/2026, 2:45:00 pm IST  BUY -650.00  SELL -700.00  mid -675.00",
      "20/11/2026, 2:45:01 pm IST  BUY -645.00  SELL -690.00  mid -667.50",
      "20/11/2026, 2:45:02 pm IST  BUY -615.00  SELL -670.00  mid -642.50",
    ]);
  });

  it("refuses what the server refuses", () => {
    expect(() => definitionOf("a / constructor", [parseLeg("a=GOLD")])).toThrow(
      "unknown name `constructor` at 5",
    );
    expect(() => parseLeg("GOLD")).toThrow('leg "GOLD" is not name=INSTRUMENT');
  });
});

describe("examples/backtest-replay", () => {
  it("prints the README's firings for gold-crossing.csv", () => {
    const report = formatReport(backtestReplay(parseReplayCsv(goldCrossing), "GC_BUY", 550));
    expect(report).toEqual([
      "20/11/2026, 2:45:10 pm IST  crossed above  +553.38",
      "20/11/2026, 2:45:45 pm IST  crossed above  +550.38",
      "20/11/2026, 2:46:30 pm IST  crossed below  +521.76",
      "20/11/2026, 2:47:30 pm IST  crossed below  +546.32",
      "Gold Buy (GC_BUY) alert at 550.00: 4 firings over 9 spread changes from 15 quotes",
    ]);
  });

  it("parses ISO and epoch-ms times, partial books and price rows", () => {
    const quotes = parseReplayCsv(
      "ts,source,key,bid,ask,price\r\n" +
        "2026-11-20T09:15:00.000Z,fx,USDINR,,,84\r\n" +
        "\r\n" +
        "1795166100100, mcx ,GOLD,76390,,\r\n",
    );
    expect(quotes).toEqual([
      { source: "fx", key: "USDINR", price: 84, ts: Date.UTC(2026, 10, 20, 9, 15) },
      { source: "mcx", key: "GOLD", bid: 76390, ts: 1795166100100 },
    ]);
  });

  it("names the line of a row it cannot play", () => {
    const header = "ts,source,key,bid,ask,price\n";
    expect(() => parseReplayCsv(`${header}0,cme,GC,,,\n`)).toThrow(
      "line 2: a cme row needs bid or ask",
    );
    expect(() => parseReplayCsv(`${header}0,fx,USDINR,,,84\nnoon,fx,USDINR,,,84`)).toThrow(
      'line 3: ts "noon"',
    );
    expect(() => parseReplayCsv(`${header}0,mcx,GC,1,2,\n`)).toThrow('line 2: key "GC"');
    expect(() => parseReplayCsv(`${header}0,cme,GC,abc,2,\n`)).toThrow('line 2: bid "abc"');
    expect(() => parseReplayCsv("ts,source,key\n")).toThrow("line 1: header lacks bid, ask, price");
  });
});
