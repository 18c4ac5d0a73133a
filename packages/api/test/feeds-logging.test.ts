import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultLogger } from "../src/feeds/providers/provider.ts";
import { log } from "../src/log.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("market data warnings", () => {
  it("go to the server's logger, each kind at most once a minute however much a provider flaps", () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    // A unique name keeps this test's keys apart from anything else that warned in this process.
    const name = `flappy-${Date.now()}`;
    for (let i = 0; i < 20; i++)
      defaultLogger(`${name}: ticker connection closed (code 1006); reconnecting in ${i}.5 s`);
    defaultLogger(`${name}: HTTP 503; trying again`);
    defaultLogger(`${name}: HTTP 500; trying again`);
    expect(warn.mock.calls.map((call) => call[1])).toEqual([
      `market data: ${name}: ticker connection closed (code 1006); reconnecting in 0.5 s`,
      `market data: ${name}: HTTP 503; trying again`,
    ]);
  });
});
