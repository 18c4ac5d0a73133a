import { emptyPrices, type Prices } from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { formatExpiry, priceGroups, undescribedKeys } from "./priceRows.ts";

const at = 1_700_000_000_000;

function prices(patch: Partial<Prices>): Prices {
  return { ...emptyPrices(), ...patch };
}

describe("priceGroups", () => {
  it("lists the fifteen built-in keys with no quote yet, by exchange, in the Spread table's order", () => {
    const groups = priceGroups(emptyPrices(), []);
    expect(groups.map((g) => g.label)).toEqual(["COMEX", "NYMEX", "MCX", "Spot", "Index", "FX"]);
    expect(groups.flatMap((g) => g.rows.map((r) => r.key))).toEqual([
      "SI",
      "GC",
      "HG",
      "NG",
      "CL",
      "SILVER",
      "GOLD",
      "COPPER",
      "NATURALGAS",
      "CRUDEOIL",
      "XAUUSD",
      "XAGUSD",
      "NIFTY50",
      "GIFTNIFTY",
      "USDINR",
    ]);
    expect(groups.flatMap((g) => g.rows).every((r) => r.entry === undefined)).toBe(true);
  });

  it("gives futures a book and a CME or MCX venue, and single prices their exchange", () => {
    const rows = priceGroups(emptyPrices(), []).flatMap((g) => g.rows);
    const gc = rows.find((r) => r.key === "GC");
    const gold = rows.find((r) => r.key === "GOLD");
    const spot = rows.find((r) => r.key === "XAUUSD");
    expect([gc?.venue, gc?.book, gc?.source]).toEqual(["CME", true, "cme"]);
    expect([gold?.venue, gold?.book, gold?.source]).toEqual(["MCX", true, "mcx"]);
    expect([spot?.venue, spot?.book, spot?.source]).toEqual(["SPOT", false, "spot"]);
  });

  it("lists NFO and CDS futures under their own headings and venues, with the books of the mcx section", () => {
    const nifty = { bid: 24_000.4, ask: 24_000.55, timestamp: at };
    const usdinr = { bid: 83.26, ask: 83.265, timestamp: at };
    const groups = priceGroups(prices({ mcx: { NIFTY: nifty, USDINRF: usdinr } }), [
      { key: "NIFTY", exchange: "NFO", name: "NIFTY futures", decimals: 2 },
      { key: "USDINRF", exchange: "CDS", name: "USDINR futures", decimals: 4 },
    ]);
    expect(groups.map((g) => g.label)).toEqual([
      "COMEX",
      "NYMEX",
      "MCX",
      "NFO",
      "CDS",
      "Spot",
      "Index",
      "FX",
    ]);
    const row = (label: string) => groups.find((g) => g.label === label)?.rows[0];
    expect(row("NFO")).toMatchObject({ key: "NIFTY", venue: "NFO", book: true, entry: nifty });
    expect(row("CDS")).toMatchObject({ key: "USDINRF", venue: "CDS", book: true, entry: usdinr });
  });

  it("reads each key's entry from its section, the indices by their field names", () => {
    const book = { bid: 1, ask: 2, timestamp: at };
    const nifty = { price: 24_000, timestamp: at };
    const rows = priceGroups(
      prices({ cme: { GC: book }, zerodha: { nifty50: nifty } }),
      [],
    ).flatMap((g) => g.rows);
    expect(rows.find((r) => r.key === "GC")?.entry).toBe(book);
    expect(rows.find((r) => r.key === "NIFTY50")?.entry).toBe(nifty);
  });

  it("lists a key the prices carry beyond the fifteen, described by the server's list", () => {
    const zinc = { bid: 250, ask: 251, timestamp: at };
    const groups = priceGroups(
      prices({
        mcx: { ZINC: zinc },
        contracts: { ZINC: { contract: "ZINC26JAN", expiry: "2026-01-30" } },
      }),
      [{ key: "ZINC", exchange: "MCX", name: "Zinc", decimals: 2 }],
    );
    const mcx = groups.find((g) => g.label === "MCX")?.rows ?? [];
    const row = mcx.find((r) => r.key === "ZINC");
    expect(row).toMatchObject({
      name: "Zinc",
      entry: zinc,
      contract: "ZINC26JAN",
      expiry: "2026-01-30",
    });
    // The built-ins keep their order ahead of it.
    expect(mcx.at(-1)?.key).toBe("ZINC");
  });

  it("lists a key nobody describes under the section it came in, named by its key", () => {
    const groups = priceGroups(prices({ cme: { XYZ: { bid: 1, ask: 2, timestamp: at } } }), []);
    const row = groups.find((g) => g.label === "CME")?.rows[0];
    expect(row).toMatchObject({ key: "XYZ", name: "XYZ", exchange: "CME", book: true });
  });
});

describe("formatExpiry", () => {
  it("writes an exchange's date as day, short month and year", () => {
    expect(formatExpiry("2026-02-05")).toBe("5 Feb 2026");
  });

  it("leaves a text that is not a date as it is", () => {
    expect(formatExpiry("soon")).toBe("soon");
  });
});

describe("undescribedKeys", () => {
  it("names quoted keys neither the catalogue nor the server's list describes", () => {
    const quoted = prices({
      mcx: { GOLD: { timestamp: at }, ZINC: { timestamp: at }, NEWONE: { timestamp: at } },
    });
    expect(
      undescribedKeys(quoted, [{ key: "NEWONE", exchange: "MCX", name: "x", decimals: 2 }]),
    ).toEqual([]);
    expect(undescribedKeys(quoted, [])).toEqual(["NEWONE"]);
  });
});
