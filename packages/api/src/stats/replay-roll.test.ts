import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultDuties, isKnownQuoteKey, type Quote } from "@spreadwatch/core";
import { createTestStore } from "@spreadwatch/db/testing";
import { describe, expect, it } from "vitest";
import { createReplayFeed } from "../feeds/replay/replay.ts";
import { readReplayFile } from "../feeds/replay/replay-file.ts";
import { HistoryRecorder } from "../history/recorder.ts";
import { RollRecorder } from "../instruments/roll-recorder.ts";
import { MarketHub } from "../market/hub.ts";
import { ContractCloses } from "./contract-closes.ts";
import { SpreadStatsService } from "./spread-stats-service.ts";
import { storedCloses } from "./stored-closes.ts";

const duties = defaultDuties();
const M = 60_000;
const T = Date.parse("2026-11-20T04:00:00Z");
const ROLL_MINUTE = 400;
/** GOLD December's mid at minute i: a deterministic wander, ~±150 around 76,000. */
const dec = (i: number) => Math.round(76000 + 100 * Math.sin(i / 37) + 50 * Math.sin(i / 11));
/** February is December plus two months of carry, its own continuous path. */
const feb = (i: number) => dec(i) + 1000;

/**
 * A replay whose `contract` column names each future's contract: GOLD on December and
 * GOLD@next on February, then from ROLL_MINUTE GOLD on February (its roll) and GOLD@next on
 * April. GC stays on GCG27, USDINR at 84.
 */
function replayCsv(dir: string): string {
  const rows = ["ts,source,key,bid,ask,price,contract,expiry"];
  for (let i = 0; i < ROLL_MINUTE + 5; i++) {
    const ts = T + i * M + 1_000;
    rows.push(`${ts},fx,USDINR,,,84,,`);
    rows.push(`${ts + 1},cme,GC,2650.0,2650.2,,GCG27,2027-02-24`);
    const rolled = i >= ROLL_MINUTE;
    const gold = rolled ? feb(i) : dec(i);
    const goldContract = rolled ? "GOLD27FEBFUT,2027-02-05" : "GOLD26DECFUT,2026-12-04";
    rows.push(`${ts + 2},mcx,GOLD,${gold - 1},${gold + 1},,${goldContract}`);
    const next = rolled ? feb(i) + 1000 : feb(i);
    const nextContract = rolled ? "GOLD27APRFUT,2027-04-05" : "GOLD27FEBFUT,2027-02-05";
    rows.push(`${ts + 3},mcx,GOLD@next,${next - 1},${next + 1},,${nextContract}`);
  }
  const file = join(dir, "roll.csv");
  writeFileSync(file, `${rows.join("\n")}\n`);
  return file;
}

describe("a replay that rolls GOLD onto the @next contract", () => {
  it("keeps z: the window moves to February's own past, recorded while it was GOLD@next", async () => {
    const dir = mkdtempSync(join(tmpdir(), "replay-roll-"));
    const { store, cleanup } = createTestStore();
    try {
      const quotes = readReplayFile(replayCsv(dir));
      expect(quotes.find((q) => q.key === "GOLD")?.contract).toBe("GOLD26DECFUT");
      const hub = new MarketHub(
        duties,
        undefined,
        (source, key) => isKnownQuoteKey(source, key) || key === "GOLD@next",
      );
      let stats: SpreadStatsService | undefined;
      const flush = () => recorder.writePending();
      const closes = new ContractCloses({
        store,
        duties,
        contractNow: (key) => hub.snapshot().prices.contracts?.[key]?.contract,
        flush,
        fallback: storedCloses(store, flush),
      });
      const recorder = new HistoryRecorder(store, 400 * 86_400_000);
      recorder.onMinuteClosed((s, c) => stats?.minuteClosed(s, c.timestamp, c.close));
      const rolls = new RollRecorder(store, (key) => stats?.contractRolled(new Set([key])));
      await recorder.start();
      hub.subscribe((update) => recorder.onUpdate(update));
      hub.subscribe((update) => rolls.onUpdate(update));
      const play = (part: readonly Quote[]) =>
        createReplayFeed({ quotes: part, speed: 0 }).start((q) => void hub.ingest(q));
      const rollAt = T + ROLL_MINUTE * M;
      await play(quotes.filter((q) => q.ts < rollAt));
      await recorder.writePending();
      stats = new SpreadStatsService(closes.closes, undefined, (s) => closes.contractsOf(s));
      await stats.start();
      const live = () => hub.snapshot().calculations.GC_BUY?.spread as number;
      const before = live();
      const zBefore = stats.liveMetric("GC_BUY", "zscore", before) as number;
      expect(Number.isFinite(zBefore)).toBe(true);

      // The roll: GOLD's first quote of February.
      await play(quotes.filter((q) => q.ts >= rollAt && q.ts < rollAt + M));
      const after = live();
      expect(after - before).toBeGreaterThan(900);
      await stats.settled();
      const zAfter = stats.liveMetric("GC_BUY", "zscore", after) as number;
      expect(Math.abs(zAfter - zBefore)).toBeLessThan(0.1);
      const answer = await stats.stats("GC_BUY", 20, after);
      expect(answer.coverage.contracts).toEqual({ GC: "GCG27", GOLD: "GOLD27FEBFUT" });
      expect(answer.n).toBeGreaterThan(ROLL_MINUTE - 5);
      await rolls.idle();
      expect(
        await store.contracts.rolls({ key: "GOLD", from: 0, to: rollAt + M, limit: 9 }),
      ).toEqual([{ key: "GOLD", at: rollAt + 1_002, from: "GOLD26DECFUT", to: "GOLD27FEBFUT" }]);
      await recorder.stop();
    } finally {
      await cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
