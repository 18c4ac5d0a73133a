import { describe, expect, it } from "vitest";
import {
  defaultDuties,
  INSTRUMENT_IDS,
  INSTRUMENTS,
  instrument,
  instrumentByMcxKey,
  isInstrumentId,
  MCX_KEYS,
  TROY_OUNCE_GRAMS,
} from "./instrument.ts";

describe("instrument catalogue", () => {
  it("holds the five instruments of docs/design.md §2 in trader order", () => {
    expect(INSTRUMENTS.map((i) => i.id)).toEqual(["GC", "SI", "HG", "NG", "CL"]);
    expect(INSTRUMENTS.map((i) => i.id)).toEqual([...INSTRUMENT_IDS]);
    expect(INSTRUMENTS.map((i) => i.mcxKey)).toEqual([...MCX_KEYS]);
    expect(INSTRUMENTS.map((i) => i.name)).toEqual([
      "Gold",
      "Silver",
      "Copper",
      "Natural Gas",
      "Crude Oil",
    ]);
  });

  it("converts CME units to MCX units", () => {
    // 10 g of gold is 10 / 31.1034768 troy oz; 1 kg of silver is 1000 / 31.1034768 troy oz.
    expect(instrument("GC").factor).toBeCloseTo(0.321507465686, 12);
    expect(instrument("SI").factor).toBeCloseTo(32.1507465686, 10);
    // 1 kg = 2.20462262185 lb.
    expect(instrument("HG").factor).toBe(2.20462262185);
    expect(instrument("NG").factor).toBe(1);
    expect(instrument("CL").factor).toBe(1);
    expect(TROY_OUNCE_GRAMS).toBe(31.1034768);
  });

  it("keys every CME book by the instrument id", () => {
    for (const inst of INSTRUMENTS) expect(inst.cmeKey).toBe(inst.id);
  });

  it("looks instruments up by id and by MCX key", () => {
    expect(instrument("NG").mcxKey).toBe("NATURALGAS");
    expect(instrumentByMcxKey("CRUDEOIL")?.id).toBe("CL");
    expect(instrumentByMcxKey("GC")).toBeUndefined();
    expect(instrumentByMcxKey("toString")).toBeUndefined();
  });

  it("recognises instrument ids only", () => {
    expect(isInstrumentId("HG")).toBe(true);
    expect(isInstrumentId("GOLD")).toBe(false);
    expect(isInstrumentId("gc")).toBe(false);
    expect(isInstrumentId("")).toBe(false);
  });

  it("defaults duty to 6 % on precious metals and 0 elsewhere", () => {
    expect(defaultDuties()).toEqual({ GC: 0.06, SI: 0.06, HG: 0, NG: 0, CL: 0 });
  });

  it("returns a fresh duties object each time, so config overrides cannot leak", () => {
    const duties = defaultDuties();
    duties.GC = 0.15;
    expect(defaultDuties().GC).toBe(0.06);
  });
});
