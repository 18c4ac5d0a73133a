import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultDuties, isKnownQuoteKey, type QuoteSource } from "@spreadwatch/core";
import { afterAll, describe, expect, it } from "vitest";
import { createReplayFeed } from "../src/feeds/replay/replay.ts";
import { ReplayFileError, readReplayFile } from "../src/feeds/replay/replay-file.ts";
import { MarketHub } from "../src/market/hub.ts";

const dir = mkdtempSync(join(tmpdir(), "spreadwatch-replay-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function csvFile(name: string, rows: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, `ts,source,key,bid,ask,price\n${rows.join("\n")}\n`);
  return file;
}

describe("a replay CSV with contracts", () => {
  it("carries each row's contract and expiry, so a replay can cross a roll", () => {
    const file = join(dir, "contracts.csv");
    writeFileSync(
      file,
      [
        "ts,source,key,bid,ask,price,contract,expiry",
        "1767225600000,mcx,GOLD,76500,76502,,GOLD26DECFUT,2026-12-04",
        "1767225600001,mcx,GOLD,77300,77302,,GOLD27FEBFUT,2027-02-05",
        "1767225600002,fx,USDINR,,,84,,",
      ].join("\n"),
    );
    expect(readReplayFile(file).map((q) => [q.key, q.contract, q.expiry])).toEqual([
      ["GOLD", "GOLD26DECFUT", "2026-12-04"],
      ["GOLD", "GOLD27FEBFUT", "2027-02-05"],
      ["USDINR", undefined, undefined],
    ]);
  });

  it("refuses a malformed contract or expiry with its line", () => {
    const bad = (contract: string, expiry: string) => {
      const file = join(dir, "bad-contract.csv");
      writeFileSync(
        file,
        `ts,source,key,bid,ask,price,contract,expiry\n1767225600000,mcx,GOLD,1,2,,${contract},${expiry}\n`,
      );
      return () => readReplayFile(file);
    };
    expect(bad("gold dec", "")).toThrow(/line 2: contract "gold dec" is not a contract name/);
    expect(bad("GOLD26DECFUT", "04-12-2026")).toThrow(/line 2: expiry "04-12-2026" is not a date/);
  });
});

describe("a replay CSV with any catalogue key", () => {
  const file = csvFile("catalogue.csv", [
    "1767225600000,mcx,GOLD,76500,76502,",
    "1767225600001,mcx,ZINC,300.05,300.15,",
    "1767225600002,mcx,GOLD@next,77000,77004,",
    "1767225600003,cme,BZ,75.1,75.12,",
    // An admin's own instrument: any well-formed key under a known group.
    "1767225600004,index,MYINDEX,,,1234.5",
  ]);

  it("reads every row, other months, base metals and an admin's own key included", () => {
    expect(readReplayFile(file).map((q) => [q.source, q.key])).toEqual([
      ["mcx", "GOLD"],
      ["mcx", "ZINC"],
      ["mcx", "GOLD@next"],
      ["cme", "BZ"],
      ["index", "MYINDEX"],
    ]);
  });

  it("plays them into the hub, which keeps only the instruments in use", async () => {
    const play = async (inUse: (source: QuoteSource, key: string) => boolean) => {
      const hub = new MarketHub(defaultDuties(), undefined, inUse);
      const feed = createReplayFeed({ quotes: readReplayFile(file), speed: 0 });
      await feed.start((quote) => hub.ingest(quote));
      await feed.stop();
      return hub.snapshot().prices;
    };
    // Out of the box only the fifteen built-in keys are in use: ZINC's rows are dropped.
    const builtIn = await play(isKnownQuoteKey);
    expect(builtIn.mcx).toHaveProperty("GOLD");
    expect(builtIn.mcx).not.toHaveProperty("ZINC");
    // With ZINC and GOLD@next added they are quoted under MCX.
    const added = await play(
      (source, key) => isKnownQuoteKey(source, key) || ["ZINC", "GOLD@next"].includes(key),
    );
    expect(added.mcx).toMatchObject({
      ZINC: { bid: 300.05, ask: 300.15 },
      "GOLD@next": { bid: 77000, ask: 77004 },
    });
    expect(added.cme).not.toHaveProperty("BZ");
  });

  it.each([
    ["mcx,gold x,1,2,", 'key "gold x" is not an instrument key such as GOLD, GOLD@next or ZINC'],
    ["mcx,GOLD@later,1,2,", 'key "GOLD@later" is not an instrument key'],
    ["cme,ZINC,1,2,", 'key "ZINC" is a mcx key, not cme'],
    ["metals,ZINC,1,2,", 'source "metals" is not one of'],
    ["mcx,ZINC,,,300", "a mcx row needs bid or ask"],
  ])("refuses %s naming the line", (row, reason) => {
    const bad = csvFile("bad.csv", ["1767225600000,mcx,GOLD,1,2,", `1767225600001,${row}`]);
    expect(() => readReplayFile(bad)).toThrow(ReplayFileError);
    expect(() => readReplayFile(bad)).toThrow(`line 3: ${reason}`);
  });
});
