// The closed trades' CSV and summary (docs/http-api.md "Positions API (paper)"): one line, one
// trade, per close.
import { csvCell, IST_OFFSET_MS, summariseClosed } from "@spreadwatch/core";
import type { PositionClose, StoredPosition } from "@spreadwatch/db";

const HEADER = [
  "close_id",
  "position_id",
  "campaign_id",
  "spread",
  "name",
  "side",
  "lots",
  "entry",
  "exit",
  "realised_inr",
  "opened_at",
  "closed_at",
  "reason",
  "opened_at_ist",
  "closed_at_ist",
];

/** UTC, ISO-8601: "2026-11-28T18:30:00.000Z". */
const utc = (ms: number) => new Date(ms).toISOString();

/** The same instant on an Indian desk's clock, ISO-8601 with its offset: "2026-11-29T00:00:00.000+05:30". */
const ist = (ms: number) => new Date(ms + IST_OFFSET_MS).toISOString().replace("Z", "+05:30");

/** How the closed trades show a spread's values: the decimals the Positions screen uses. */
export type SpreadDecimals = (spread: string, values: readonly number[]) => number;

/**
 * A user definition's decimals as the Positions screen reads them from the value's size: 4 while
 * every value is under 10 (a ratio near 0.8), else 2 (rupees). A built-in has its own
 * (core's spreadDecimals: 4 for copper, else 2).
 */
export function definitionDecimals(values: readonly number[]): number {
  return values.every((value) => Math.abs(value) < 10) ? 4 : 2;
}

/**
 * One line per close; every cell through core's csvCell, so text is quoted and a spread's name
 * cannot start a formula in any spreadsheet locale. Entry and exit carry the spread's decimals
 * (not a double's 15 digits), ₹ paise; times in UTC and in IST.
 */
export function closedTradesCsv(
  closes: readonly PositionClose[],
  positions: readonly StoredPosition[],
  nameOf: (spread: string) => string,
  decimalsOf: SpreadDecimals,
): string {
  const byId = new Map(positions.map((p) => [p.id, p]));
  const lines = [HEADER.join(",")];
  for (const c of closes) {
    const p = byId.get(c.positionId);
    if (!p) continue;
    const decimals = decimalsOf(p.spread, [p.entry, c.exit]);
    lines.push(
      [
        csvCell(c.id),
        csvCell(p.id),
        csvCell(p.campaignId),
        csvCell(p.spread),
        csvCell(nameOf(p.spread)),
        csvCell(p.side),
        csvCell(c.lots),
        csvCell(p.entry, decimals),
        csvCell(c.exit, decimals),
        csvCell(c.realisedInr, 2),
        csvCell(utc(p.openedAt)),
        csvCell(utc(c.closedAt)),
        csvCell(c.reason),
        csvCell(ist(p.openedAt)),
        csvCell(ist(c.closedAt)),
      ].join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

export function closedSummary(
  closes: readonly PositionClose[],
  positions: readonly StoredPosition[],
) {
  const byId = new Map(positions.map((p) => [p.id, p]));
  return summariseClosed(
    closes.flatMap((c) => {
      const p = byId.get(c.positionId);
      return p ? [{ realisedInr: c.realisedInr, openedAt: p.openedAt, closedAt: c.closedAt }] : [];
    }),
  );
}
