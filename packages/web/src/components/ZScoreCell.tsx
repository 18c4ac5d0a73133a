import { type ChartSymbol, formatNumber, formatSigned } from "@spreadwatch/core";
import { useSpreadStats } from "../hooks/useSpreadStats.ts";

/** |z| < 1 ordinary, 1–2 worth a look, ≥ 2 unusual (coloured by which way). */
function zClass(z: number): string {
  const size = Math.abs(z);
  if (size < 1) return "z--calm";
  if (size < 2) return "z--watch";
  return z > 0 ? "z--high" : "z--low";
}

/** Issue 12 §2's z column: the live spread against its 20-day 1-minute closes. */
export function ZScoreCell({ symbol }: { symbol: ChartSymbol }) {
  const stats = useSpreadStats(symbol);
  const z = stats?.z;
  if (z === null || z === undefined)
    return (
      <td
        className="num z muted col--wide"
        data-col="z"
        title={stats ? `Not enough history (${stats.n} closes in 20 days)` : undefined}
      >
        –
      </td>
    );
  const title = [
    `20-day percentile ${formatNumber(stats?.percentile, 1)}`,
    `mean ${formatNumber(stats?.mean, 2)}, σ ${formatNumber(stats?.std, 2)}`,
    `${formatNumber(stats?.n, 0)} one-minute closes`,
  ].join(" · ");
  return (
    <td className={`num z col--wide ${zClass(z)}`} data-col="z" data-z={z} title={title}>
      {formatSigned(z, 2)}
    </td>
  );
}
