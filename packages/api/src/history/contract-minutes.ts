import { type Candle, CandleBuilder } from "@spreadwatch/core";

/** One contract's closed one-minute mid candles, and the key that quoted them. */
export interface ContractBatch {
  key: string;
  contract: string;
  candles: Candle[];
}

const MINUTE_MS = 60_000;

interface Forming {
  key: string;
  builder: CandleBuilder;
  closed: Candle[];
}

/**
 * One-minute mid candles per exchange contract (GOLD26DECFUT) from the quotes that name one,
 * whichever key quoted them: GOLD@next's minutes of GOLD27FEBFUT and, after the roll, GOLD's
 * continue one series (docs/history.md). The recorder and the first start's backfill both build
 * with it; `drain` hands over what closed since, so neither holds more than it has not written.
 */
export class ContractMinutes {
  private readonly byContract = new Map<string, Forming>();
  /** The latest quote time seen: a contract's minute before its minute is over. */
  private latest = Number.NEGATIVE_INFINITY;

  add(key: string, contract: string, ts: number, mid: number): void {
    let forming = this.byContract.get(contract);
    if (!forming) {
      forming = { key, builder: new CandleBuilder("1m"), closed: [] };
      this.byContract.set(contract, forming);
    }
    forming.key = key;
    if (ts > this.latest) this.latest = ts;
    const closed = forming.builder.add(ts, mid);
    if (closed) forming.closed.push(closed);
  }

  /**
   * The closed minutes since the last drain (with the forming ones too when `all`). A minute is
   * closed once any quote is of a later minute, not only a quote of its own contract: after a
   * roll the old contract is quoted no more, and its last minute must not wait for it.
   */
  drain(all = false): ContractBatch[] {
    const out: ContractBatch[] = [];
    const current = this.latest - (this.latest % MINUTE_MS);
    for (const [contract, forming] of this.byContract) {
      const candles = forming.closed;
      forming.closed = [];
      const open = forming.builder.forming;
      if (open && (all || open.timestamp < current)) {
        candles.push({ ...open });
        // A late quote of that minute starts a candle the store merges into the written one.
        if (!all) forming.builder = new CandleBuilder("1m");
      }
      if (candles.length > 0) out.push({ key: forming.key, contract, candles });
    }
    return out;
  }

  /** Forgets contracts no quote named for `idleMs` (an expired contract's builder). */
  forgetIdle(now: number, idleMs: number): void {
    for (const [contract, forming] of this.byContract) {
      const last = forming.builder.forming?.timestamp;
      if (last !== undefined && now - last > idleMs && forming.closed.length === 0)
        this.byContract.delete(contract);
    }
  }
}
