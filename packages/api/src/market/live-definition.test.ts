import {
  checkDefinition,
  defaultDuties,
  evaluateDefinition,
  type LegBook,
  type SpreadDefinition,
} from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../feeds/simulator/random.ts";
import type { RegisteredSpread } from "../spreads/registry.ts";
import { type DefinitionEntry, LiveDefinition } from "./live-definition.ts";

const FORMULAS: ReadonlyArray<{ legs: string[]; formula: string }> = [
  { legs: ["g", "s"], formula: "g / s" },
  { legs: ["a", "b"], formula: "1 / (a - b)" },
  { legs: ["m", "c", "fx"], formula: "m - c * (10 / TROY_OUNCE_GRAMS) * fx * (1 + 0.06)" },
  { legs: ["g", "s", "b"], formula: "max(g, 2) - min(s, b) * 3 + abs(-g)" },
  { legs: ["x"], formula: "-x * 1e308 * 10" },
];

function registered(legs: string[], formula: string): RegisteredSpread {
  const definition: SpreadDefinition = {
    id: 9,
    symbol: "SP9",
    name: "random",
    legs: legs.map((name, i) => ({ name, instrument: `K${i}` })),
    formula,
    shared: false,
    builtin: false,
    ownerId: 1,
    createdAt: 0,
    updatedAt: 0,
  };
  return { ...definition, checked: checkDefinition(definition, () => true) };
}

/** A book as feeds leave them: two sides, one, a crossed one, equal sides, zero, or none. */
function randomBook(random: () => number): LegBook | undefined {
  const price = [0, 1, 2, 50, 99.5, 100, 100.25][Math.floor(random() * 7)] as number;
  const roll = random();
  if (roll < 0.08) return undefined;
  if (roll < 0.16) return { bid: price + 1, ask: price };
  if (roll < 0.24) return { bid: price };
  if (roll < 0.32) return { ask: price };
  if (roll < 0.45) return { bid: price, ask: price };
  return { bid: price, ask: price + 0.25 * (1 + Math.floor(random() * 4)) };
}

describe("LiveDefinition", () => {
  it("gives core's evaluateDefinition numbers bit for bit, and no entry where it has no value", () => {
    const random = seededRandom(21);
    let valued = 0;
    let none = 0;
    for (const { legs, formula } of FORMULAS) {
      const spread = registered(legs, formula);
      const checked = spread.checked as NonNullable<RegisteredSpread["checked"]>;
      const live = new LiveDefinition(spread, checked, defaultDuties());
      for (let run = 0; run < 3_000; run++) {
        const books = new Map(legs.map((_, i) => [`K${i}`, randomBook(random)]));
        live.recompute((key) => books.get(key));
        const core = evaluateDefinition(checked, (key) => books.get(key));
        for (const [side, entry] of [
          ["BUY", live.buy],
          ["SELL", live.sell],
        ] as const) {
          const expected = core[side];
          if (expected === undefined) {
            expect(entry).toBeUndefined();
            none++;
            continue;
          }
          valued++;
          const got = entry as DefinitionEntry;
          expect(got.symbol).toBe(`SP9_${side}`);
          expect(Object.is(got.spread, expected.spread)).toBe(true);
          expect(Object.is(got.mid, expected.mid)).toBe(true);
          expect("mid" in got).toBe(expected.mid !== undefined);
          expect(got.legs).toEqual(expected.legs);
          expect(Number.isFinite(got.spread)).toBe(true);
        }
      }
    }
    // Both kinds were met many times (the random books are not all of one sort).
    expect(valued).toBeGreaterThan(5_000);
    expect(none).toBeGreaterThan(5_000);
  });

  it("keeps an entry's object while its numbers stay, and replaces it when one moves", () => {
    const spread = registered(["g", "s"], "g / s");
    const live = new LiveDefinition(spread, spread.checked as never, defaultDuties());
    const books = new Map<string, LegBook>([
      ["K0", { bid: 100, ask: 101 }],
      ["K1", { bid: 50, ask: 51 }],
    ]);
    expect(live.recompute((key) => books.get(key))).toBe(true);
    const first = live.buy;
    expect(first).toMatchObject({
      spread: 101 / 50,
      mid: 100.5 / 50.5,
      legs: {
        g: { price: 101, side: "ask", instrument: "K0" },
        s: { price: 50, side: "bid", instrument: "K1" },
      },
    });
    // The same books again (a repeated quote): nothing replaced.
    expect(live.recompute((key) => books.get(key))).toBe(false);
    expect(live.buy).toBe(first);
    // SILVER's ask moves: BUY takes its bid, so only the mid moved: BUY is replaced for its mid.
    books.set("K1", { bid: 50, ask: 52 });
    expect(live.recompute((key) => books.get(key))).toBe(true);
    expect(live.buy).not.toBe(first);
    expect(live.buy?.spread).toBe(first?.spread);
  });
});
