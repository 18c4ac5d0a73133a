import { describe, expect, it } from "vitest";
import { OneTimeTokens } from "./one-time-tokens.ts";

const TEN_MINUTES = 10 * 60_000;

describe("one-time tokens (the Kite login's state)", () => {
  it("are good once, for the user they were issued to", () => {
    const tokens = new OneTimeTokens(TEN_MINUTES);
    const token = tokens.issue(1, 0);
    expect(tokens.consume(token, 1, 1)).toBe(true);
    expect(tokens.consume(token, 1, 2)).toBe(false);
    const other = tokens.issue(1, 0);
    expect(tokens.consume(other, 2, 1)).toBe(false);
    // A wrong user's try spends the token too, so it cannot be retried.
    expect(tokens.consume(other, 1, 2)).toBe(false);
    expect(tokens.consume("made-up", 1, 1)).toBe(false);
  });

  it("expire after their lifetime", () => {
    const tokens = new OneTimeTokens(TEN_MINUTES);
    const fresh = tokens.issue(1, 0);
    const stale = tokens.issue(1, 0);
    expect(tokens.consume(fresh, 1, TEN_MINUTES - 1)).toBe(true);
    expect(tokens.consume(stale, 1, TEN_MINUTES)).toBe(false);
  });

  it("keep at most `capacity`, dropping the oldest", () => {
    const tokens = new OneTimeTokens(TEN_MINUTES, 3);
    const issued = [1, 2, 3, 4].map((i) => tokens.issue(1, i));
    expect(tokens.consume(issued[0] as string, 1, 5)).toBe(false);
    for (const token of issued.slice(1)) expect(tokens.consume(token, 1, 5)).toBe(true);
  });
});
