import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SortedMultiset } from "./sorted-multiset.ts";

describe("SortedMultiset", () => {
  it("counts, removes one occurrence, and knows its ends", () => {
    const set = new SortedMultiset();
    for (const v of [3, 1, 2, 2, 5]) set.insert(v);
    // sorted 1, 2, 2, 3, 5
    expect([
      set.countAtMost(0),
      set.countAtMost(2),
      set.countAtMost(4),
      set.countAtMost(9),
    ]).toEqual([0, 3, 4, 5]);
    expect(set.remove(2)).toBe(true);
    expect(set.remove(4)).toBe(false);
    expect([set.size, set.min(), set.max(), set.countAtMost(2)]).toEqual([4, 1, 5, 2]);
  });

  it("agrees with a sorted array across block splits and merges (property)", () => {
    const op = fc.oneof(
      { arbitrary: fc.record({ insert: fc.integer({ min: 0, max: 300 }) }), weight: 3 }, // grows past a block
      { arbitrary: fc.record({ remove: fc.integer({ min: 0, max: 300 }) }), weight: 1 },
    );
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 600, maxLength: 3000 }),
        fc.integer({ min: -1, max: 301 }),
        (ops, q) => {
          const set = new SortedMultiset();
          const model: number[] = [];
          for (const o of ops) {
            if ("insert" in o) {
              set.insert(o.insert);
              model.push(o.insert);
            } else {
              const i = model.indexOf(o.remove);
              expect(set.remove(o.remove)).toBe(i >= 0);
              if (i >= 0) model.splice(i, 1);
            }
          }
          model.sort((a, b) => a - b);
          expect(set.size).toBe(model.length);
          expect(set.countAtMost(q)).toBe(model.filter((v) => v <= q).length);
          expect([set.min(), set.max()]).toEqual([model[0], model[model.length - 1]]);
          expect(model.map((_, rank) => set.at(rank))).toEqual(model);
          expect([set.at(-1), set.at(model.length), set.at(0.5)]).toEqual([
            undefined,
            undefined,
            undefined,
          ]);
        },
      ),
      { numRuns: 40 },
    );
  });
});
