import { describe, expect, it } from "vitest";
import {
  contractFor,
  contractProduct,
  expiryDate,
  isUsExchangeHoliday,
  liveContracts,
} from "./contract-calendar.ts";

const product = (root: string) => {
  const p = contractProduct(root);
  if (!p) throw new Error(`no product ${root}`);
  return p;
};

describe("expiry rules (docs/instruments.md)", () => {
  it("MCX GOLD expires on the 5th, or the business day before when the 5th is a weekend", () => {
    expect(expiryDate(product("GOLD").expiry, 2027, 2)).toBe("2027-02-05"); // a Friday
    expect(expiryDate(product("GOLD").expiry, 2026, 12)).toBe("2026-12-04"); // the 5th is a Saturday
  });

  it("MCX minis and COPPER expire on the month's last business day", () => {
    expect(expiryDate(product("SILVERM").expiry, 2027, 2)).toBe("2027-02-26"); // 28th is a Sunday
    expect(expiryDate(product("COPPER").expiry, 2026, 11)).toBe("2026-11-30");
  });

  it("MCX NICKEL expires on the contract month's third Wednesday (from the September 2025 contract)", () => {
    expect(expiryDate(product("NICKEL").expiry, 2026, 12)).toBe("2026-12-16"); // the 1st is a Tuesday
    expect(expiryDate(product("NICKEL").expiry, 2026, 11)).toBe("2026-11-18"); // the 1st is a Sunday
    expect(expiryDate(product("NICKEL").expiry, 2027, 9)).toBe("2027-09-15"); // the 1st is a Wednesday
  });

  it("NYMEX BZ stops on the last business day two months before, February's a day earlier", () => {
    expect(expiryDate(product("BZ").expiry, 2027, 3)).toBe("2027-01-29");
    expect(expiryDate(product("BZ").expiry, 2027, 2)).toBe("2026-12-30"); // 31 Dec is the last
  });

  it("NYMEX CL stops 3 business days before the 25th of the month before, 4 when the 25th is a weekend", () => {
    expect(expiryDate(product("CL").expiry, 2027, 2)).toBe("2027-01-20"); // 25 Jan 2027 is a Monday
    expect(expiryDate(product("CL").expiry, 2027, 5)).toBe("2027-04-20"); // 25 Apr 2027 is a Sunday
  });

  it("MCX CRUDEOIL expires the business day before NYMEX's next-month contract", () => {
    const nymexFeb = expiryDate(product("CL").expiry, 2027, 2);
    expect(expiryDate(product("CRUDEOIL").expiry, 2027, 1)).toBe("2027-01-19");
    expect(nymexFeb).toBe("2027-01-20");
  });

  it("COMEX gold's last trade is the third-last business day; notices start the month before", () => {
    const gc = product("GC");
    expect(expiryDate(gc.expiry, 2027, 2)).toBe("2027-02-24");
    expect(gc.firstNotice && expiryDate(gc.firstNotice, 2027, 2)).toBe("2027-01-29");
  });
});

describe("holidays", () => {
  it("knows the US exchange holidays, moved off weekends", () => {
    expect(isUsExchangeHoliday("2027-03-26")).toBe(true); // Good Friday (Easter is 28 March)
    expect(isUsExchangeHoliday("2026-11-26")).toBe(true); // Thanksgiving, fourth Thursday
    expect(isUsExchangeHoliday("2027-06-18")).toBe(true); // Juneteenth on a Saturday: the Friday
    expect(isUsExchangeHoliday("2026-12-25")).toBe(true);
    expect(isUsExchangeHoliday("2026-12-24")).toBe(false);
    expect(isUsExchangeHoliday("2021-06-18")).toBe(false); // before Juneteenth was one
  });

  it("NYMEX CL counts 4 business days when the 25th is Christmas, and MCX crude follows", () => {
    // 25 December 2026 is a Friday: CL January 2027 stops on the 21st, MCX December crude the 18th.
    expect(contractFor("CL", "near", "2026-12-01", 0, "cme")?.expiry).toBe("2026-12-21");
    expect(contractFor("CRUDEOIL", "near", "2026-12-01", 0, "mcx")?.expiry).toBe("2026-12-18");
  });

  // MCX's launch calendars for the minis' first year (2023), as published: the rule with the
  // US holidays (Memorial Day, Juneteenth, Thanksgiving, Christmas) gives every date.
  const published = {
    CRUDEOILM: [
      "2023-04-19",
      "2023-05-19",
      "2023-06-16",
      "2023-07-19",
      "2023-08-21",
      "2023-09-19",
      "2023-10-19",
      "2023-11-17",
      "2023-12-18",
    ],
    NATGASMINI: [
      "2023-04-25",
      "2023-05-25",
      "2023-06-27",
      "2023-07-26",
      "2023-08-28",
      "2023-09-26",
      "2023-10-26",
      "2023-11-27",
      "2023-12-26",
    ],
  };
  it.each(Object.entries(published))(
    "%s expires on MCX's published days, April–December 2023",
    (root, days) => {
      const months = days.map((_, i) => i + 4);
      expect(
        months.map(
          (m) =>
            contractFor(root, "near", `2023-${String(m).padStart(2, "0")}-01`, 0, "mcx")?.expiry,
        ),
      ).toEqual(days);
    },
  );
});

describe("month selectors", () => {
  it("near, next and far are the first three listed contracts outside the roll window", () => {
    const gold = liveContracts(product("GOLD"), "2026-11-26", 3, "mcx");
    expect(gold.map((c) => c.symbol)).toEqual(["GOLD26DECFUT", "GOLD27FEBFUT", "GOLD27APRFUT"]);
    expect(gold[0]?.label).toBe("26DEC");
  });

  it("rolls near to the next listed contract once the roll window starts", () => {
    // GOLD Dec 2026 expires 4 Dec: with 3 days' roll window it is near until 30 Nov.
    expect(contractFor("GOLD", "near", "2026-11-30", 3, "mcx")?.symbol).toBe("GOLD26DECFUT");
    expect(contractFor("GOLD", "near", "2026-12-01", 3, "mcx")?.symbol).toBe("GOLD27FEBFUT");
    expect(contractFor("GOLD", "next", "2026-12-01", 3, "mcx")?.symbol).toBe("GOLD27APRFUT");
  });

  it("COMEX rolls before first notice, named in CME's month codes", () => {
    expect(contractFor("GC", "near", "2026-11-26", 3, "cme")?.symbol).toBe("GCZ26");
    expect(contractFor("GC", "near", "2026-11-27", 3, "cme")?.symbol).toBe("GCG27");
  });

  it("knows nothing of a product outside the calendar", () => {
    expect(contractFor("UNOBTAINIUM", "near", "2026-11-26", 3, "mcx")).toBeUndefined();
  });
});
