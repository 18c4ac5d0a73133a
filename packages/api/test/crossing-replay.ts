import { writeFileSync } from "node:fs";
import { join } from "node:path";

// GC_BUY = GOLD ask − parity(GC bid); with USDINR 84 and GC bid 2000, parity is 57254.0494894127
// (worked in rest-market.test.ts), so an ask of 57204 puts GC_BUY at −50.05 and 57304 at +49.95.
export const GOLD_PARITY = 57254.0494894127;
export const LOW_ASK = 57204;
export const HIGH_ASK = 57304;
const START = Date.parse("2026-11-20T09:15:00.000Z");

/**
 * A replay in which GC_BUY starts below 0 and crosses 0 `crossings` times, one minute apart
 * (well past the 30 s cooldown). Row k of the GOLD quotes is at START + 60 s × k, after the other
 * two legs quoted again at the same time.
 */
export function crossingReplay(dir: string, crossings: number, name = "crossings.csv"): string {
  const rows = [
    "ts,source,key,bid,ask,price",
    `${START},fx,USDINR,,,84`,
    `${START},cme,GC,2000,2000.5,`,
    `${START},mcx,GOLD,${LOW_ASK - 20},${LOW_ASK},`,
  ];
  for (let k = 1; k <= crossings; k++) {
    const ask = k % 2 === 1 ? HIGH_ASK : LOW_ASK;
    const ts = START + k * 60_000;
    // GC and USDINR quoted again, unchanged, as a live market would: played fast, a leg quoted
    // only once goes silent after FEED_SILENCE_SECONDS and its crossings are held
    // (docs/user-guide.md, "Spread alerts").
    rows.push(`${ts},fx,USDINR,,,84`, `${ts},cme,GC,2000,2000.5,`);
    rows.push(`${ts},mcx,GOLD,${ask - 20},${ask},`);
  }
  const file = join(dir, name);
  writeFileSync(file, `${rows.join("\n")}\n`);
  return file;
}

export const crossingTime = (k: number) => START + k * 60_000;
