import { describe, expect, it } from "vitest";
import {
  formatAge,
  formatDuration,
  isCut,
  type ProviderHealth,
  providerLabel,
  providersByKey,
  quoteAgeMs,
} from "./feedHealth.ts";

function provider(patch: Partial<ProviderHealth>): ProviderHealth {
  return {
    name: "yahoo",
    state: "live",
    keys: [],
    lastQuoteAgeMs: null,
    ...patch,
  } as ProviderHealth;
}

describe("isCut", () => {
  it("cuts every row of a provider that is down or not configured", () => {
    for (const delayed of [false, true]) {
      expect(isCut("down", delayed)).toBe(true);
      expect(isCut("not_configured", delayed)).toBe(true);
    }
  });

  it("cuts a stale provider's delayed rows only: live rows age by their own timestamps", () => {
    expect(isCut("stale", true)).toBe(true);
    expect(isCut("stale", false)).toBe(false);
    expect(isCut("live", true)).toBe(false);
    expect(isCut("delayed", true)).toBe(false);
  });
});

describe("providersByKey", () => {
  it("maps each quote key to the provider serving it", () => {
    const kite = provider({ name: "kite", keys: ["GOLD", "SILVER"] });
    const yahoo = provider({ name: "yahoo", keys: ["GC"] });
    const byKey = providersByKey([kite, yahoo]);
    expect(byKey.get("SILVER")).toBe(kite);
    expect(byKey.get("GC")).toBe(yahoo);
    expect(byKey.get("HG")).toBeUndefined();
  });

  it("is empty before the health status has come", () => {
    expect(providersByKey(undefined).size).toBe(0);
  });
});

describe("quoteAgeMs", () => {
  it("adds the time since the status was fetched to the server's figure", () => {
    expect(quoteAgeMs(provider({ lastQuoteAgeMs: 4_000 }), 10_000, 13_000, undefined)).toBe(7_000);
  });

  it("takes a price change the stream showed since, when it is newer", () => {
    expect(quoteAgeMs(provider({ lastQuoteAgeMs: 4_000 }), 10_000, 13_000, 12_500)).toBe(500);
    expect(quoteAgeMs(provider({ lastQuoteAgeMs: 0 }), 10_000, 10_000, 5_000)).toBe(0);
  });

  it("is the stream's age alone when the server has no quote, and null with neither", () => {
    expect(quoteAgeMs(provider({}), 10_000, 13_000, 12_000)).toBe(1_000);
    expect(quoteAgeMs(provider({}), 10_000, 13_000, undefined)).toBeNull();
  });

  it("never counts a clock running behind the fetch as negative time", () => {
    expect(quoteAgeMs(provider({ lastQuoteAgeMs: 4_000 }), 10_000, 9_000, undefined)).toBe(4_000);
  });
});

describe("texts", () => {
  it("capitalises a provider's configured name", () => {
    expect(providerLabel("giftnifty")).toBe("Giftnifty");
  });

  it("says a quote's age in the largest whole unit up to days", () => {
    expect(formatAge(null)).toBe("no quote yet");
    expect(formatAge(59_999)).toBe("59 s ago");
    expect(formatAge(60_000)).toBe("1 min ago");
    expect(formatAge(2 * 3_600_000 + 5)).toBe("2 h ago");
    expect(formatAge(47 * 3_600_000)).toBe("47 h ago");
    expect(formatAge(72 * 3_600_000)).toBe("3 d ago");
  });

  it("says an uptime in two units from an hour on", () => {
    expect(formatDuration(-3)).toBe("0 s");
    expect(formatDuration(45.9)).toBe("45 s");
    expect(formatDuration(720)).toBe("12 min");
    expect(formatDuration(3 * 3600 + 5 * 60)).toBe("3 h 5 min");
    expect(formatDuration(2 * 86_400 + 4 * 3600)).toBe("2 d 4 h");
  });
});
