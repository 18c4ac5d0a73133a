import { describe, expect, it } from "vitest";
import { ConfigError } from "./config-error.ts";
import { loadConfig } from "./index.ts";
import { passwordCostFrom } from "./password-cost.ts";

describe("PASSWORD_HASH_COST", () => {
  it("is 15 when not set, or set empty", () => {
    expect(passwordCostFrom({})).toBe(15);
    expect(passwordCostFrom({ PASSWORD_HASH_COST: "" })).toBe(15);
    expect(loadConfig({}).passwordCost).toBe(15);
  });

  it("takes a whole number from 10 to 17", () => {
    expect(passwordCostFrom({ PASSWORD_HASH_COST: "10" })).toBe(10);
    expect(loadConfig({ PASSWORD_HASH_COST: "17" }).passwordCost).toBe(17);
  });

  it.each(["9", "18", "15.5", "fast", "-1"])(
    "refuses %j, naming the setting and the range",
    (value) => {
      const problem = `Invalid PASSWORD_HASH_COST: must be a whole number from 10 to 17 (scrypt's N is 2 to this power) (got ${JSON.stringify(value)})`;
      expect(() => passwordCostFrom({ PASSWORD_HASH_COST: value })).toThrow(
        new ConfigError([problem]),
      );
      expect(() => loadConfig({ PASSWORD_HASH_COST: value })).toThrow(problem);
    },
  );
});
