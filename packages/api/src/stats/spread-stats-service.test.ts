import { CHART_SYMBOLS, DEFAULT_STATS_DAYS } from "@spreadwatch/core";
import { describe, expect, it, vi } from "vitest";
import { type MinuteClose, SpreadStatsService } from "./spread-stats-service.ts";

const M = 60_000;
const T = 1_795_000_000_000 - (1_795_000_000_000 % M);

/** A store of closes that records which windows were read, in order. */
function recordingStore(closes: (symbol: string) => MinuteClose[] = () => []) {
  const reads: string[] = [];
  const read = async (symbol: string, days: number) => {
    reads.push(`${symbol}:${days}`);
    return closes(symbol);
  };
  return { reads, read };
}

const readsOf = (reads: string[]) => reads.map((r) => r.slice(0, r.indexOf(":")));

describe("the statistics after an instrument got a past (docs/history.md)", () => {
  it("read again only the windows of the spreads on it", async () => {
    const { reads, read } = recordingStore();
    const stats = new SpreadStatsService(read);
    await stats.start();
    expect(readsOf(reads)).toEqual([...CHART_SYMBOLS]);

    // An instrument no built-in spread is made of (an admin put Zinc in use), then MCX gold: only
    // the two gold parities are read, of the default window (the others were never asked). A
    // reload on Zinc would have started first and read before or among them.
    reads.length = 0;
    stats.legHistoryAdded(new Set(["ZINC"]));
    stats.legHistoryAdded(new Set(["GOLD"]));
    await vi.waitFor(() => expect(reads.length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    expect(reads).toEqual([`GC_BUY:${DEFAULT_STATS_DAYS}`, `GC_SELL:${DEFAULT_STATS_DAYS}`]);
  });

  it("let the event loop turn between two windows, so requests are answered meanwhile", async () => {
    const order: string[] = [];
    let first = true;
    const stats = new SpreadStatsService(async (symbol) => {
      if (first) {
        first = false;
        // I/O that came in while the first window was read (a request, say).
        setImmediate(() => order.push("request"));
      }
      order.push(symbol);
      return [];
    });
    await stats.start();
    // Read synchronously one after another, the request would wait for all thirteen windows.
    expect(order.indexOf("request")).toBeGreaterThan(0);
    expect(order.indexOf("request")).toBeLessThan(order.length - 1);
  });

  it("keep answering from the loaded window while it is read again, and lose no close meanwhile", async () => {
    let stored: MinuteClose[] = [0, 1, 2].map((i) => ({ timestamp: T + i * M, close: 10 + i }));
    let release: (() => void) | undefined;
    let hold = false;
    const stats = new SpreadStatsService(async (symbol) => {
      if (symbol === "GC_BUY" && hold) await new Promise<void>((r) => (release = r));
      return symbol === "GC_BUY" ? stored : [];
    });
    await stats.start();
    const before = await stats.stats("GC_BUY", DEFAULT_STATS_DAYS, 11);
    expect(before.n).toBe(3);
    expect(before.coverage).toMatchObject({ first: T, to: T + 3 * M, loading: false });

    // A fetched past adds two minutes before; a minute closes live while they are read.
    hold = true;
    stored = [{ timestamp: T - 2 * M, close: 1 }, { timestamp: T - M, close: 2 }, ...stored];
    stats.legHistoryAdded(new Set(["GC"]));
    await vi.waitFor(() => expect(release).not.toBe(undefined), { timeout: 10_000 });
    await vi.waitFor(
      async () => expect((await stats.stats("GC_BUY", DEFAULT_STATS_DAYS, 11)).n).toBe(3),
      { timeout: 10_000 },
    );
    // Meanwhile its coverage says more is on the way; a spread with no leg on GC does not.
    expect((await stats.stats("GC_BUY", DEFAULT_STATS_DAYS, 11)).coverage.loading).toBe(true);
    expect((await stats.stats("SI_BUY", DEFAULT_STATS_DAYS, 11)).coverage.loading).toBe(false);
    expect(stats.liveMetric("GC_BUY", "zscore", 11)).toBeDefined();
    stats.minuteClosed("GC_BUY", T + 3 * M, 13);
    release?.();
    // The five stored minutes and the one that closed during the read.
    await vi.waitFor(
      async () => expect((await stats.stats("GC_BUY", DEFAULT_STATS_DAYS, 11)).n).toBe(6),
      { timeout: 10_000 },
    );
    // Read in: no longer loading, and reaching back to the fetched minutes.
    const after = await stats.stats("GC_BUY", DEFAULT_STATS_DAYS, 11);
    expect(after.coverage).toMatchObject({ first: T - 2 * M, loading: false });
  });
});
