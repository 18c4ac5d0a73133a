// The closed trades' CSV and summary (docs/http-api.md "Positions API (paper)"): one line, one
// trade, per close.
import { summariseClosed } from "@spreadwatch/core";
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
];

/**
 * One CSV field: quoted when it holds a comma, quote or line break, and a leading = + - @ (a
 * spreadsheet formula in a user's spread name) defused with an apostrophe.
 */
function cell(value: string | number): string {
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function closedTradesCsv(
  closes: readonly PositionClose[],
  positions: readonly StoredPosition[],
  nameOf: (spread: string) => string,
): string {
  const byId = new Map(positions.map((p) => [p.id, p]));
  const lines = [HEADER.join(",")];
  for (const c of closes) {
    const p = byId.get(c.positionId);
    if (!p) continue;
    lines.push(
      [
        c.id,
        p.id,
        p.campaignId,
        cell(p.spread),
        cell(nameOf(p.spread)),
        p.side,
        c.lots,
        p.entry,
        c.exit,
        c.realisedInr.toFixed(2),
        iso(p.openedAt),
        iso(c.closedAt),
        c.reason,
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
