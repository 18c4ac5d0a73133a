// The data the accessibility tests look at: every table filled, z-scores with history behind
// them, a chart with candles, enabled and disabled alerts (as bells, list rows and chart lines)
// and a History with sent, pending and held entries.
import type { Page } from "playwright-core";
import { sampleHistory, seedUserFirings } from "./alert-history-data.ts";
import { rest } from "./alerts.ts";
import { freshQuotes } from "./fixtures.ts";

const MINUTE = 60_000;
const HISTORY_MINUTES = 40;
/** MCX offsets per minute, as a share of the price: closes that spread out, so z has a σ. */
const WIGGLE = [0, 3, -3, 6, -1.5, 4.5];

/**
 * Forty minutes of one-minute history for every instrument, ending an hour ago, then the
 * fixture's quotes stamped far enough ahead that no row greys while the tests run.
 */
export function a11yReplayCsv(now = Date.now()): string {
  const start = Math.floor((now - HOUR) / MINUTE) * MINUTE - HISTORY_MINUTES * MINUTE;
  const rows: string[] = [];
  for (let minute = 0; minute < HISTORY_MINUTES; minute++) {
    const shift = (WIGGLE[minute % WIGGLE.length] ?? 0) / 10_000;
    for (const row of freshQuotes(start + minute * MINUTE + 1, shift)) rows.push(row);
  }
  rows.push(...freshQuotes(now + 20 * MINUTE, 0));
  return ["ts,source,key,bid,ask,price", ...rows, ""].join("\n");
}

const HOUR = 60 * MINUTE;

/** Signed in as `username` (a page already on the app): an enabled and a disabled alert. */
export async function seedAlerts(page: Page): Promise<{ enabled: number; disabled: number }> {
  const create = async (body: Record<string, unknown>) => {
    const { status, json } = await rest(page, "POST", "/api/alerts", body);
    if (status !== 200) throw new Error(`creating an alert: ${status} ${JSON.stringify(json)}`);
    return (json.alert as { id: number }).id;
  };
  // Near the live GC_BUY (+128.38), so both lines are on the chart's home view.
  const enabled = await create({ commodityType: "GC_BUY", threshold: 120 });
  const disabled = await create({ commodityType: "GC_BUY", threshold: 135, enabled: false });
  return { enabled, disabled };
}

/** The History tab's rows: sent, pending and held entries for the user's first alert. */
export function seedHistory(dataDir: string, username: string, alertId: number): void {
  seedUserFirings(dataDir, sampleHistory(username, alertId, Date.now() - 5 * MINUTE, 3));
}
