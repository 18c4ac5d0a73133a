import { DEFAULT_STATS_DAYS, formatNumber, formatSigned } from "@spreadwatch/core";
import { useSpreadStats } from "../../hooks/market/useSpreadStats.ts";
import { coverageText, type StatisticsCoverage } from "../../market/statisticsCoverage.ts";
import { TooltipButton } from "../ui/TooltipButton.tsx";

/** |z| < 1 ordinary, 1–2 worth a look, ≥ 2 unusual (coloured by which way). */
function zClass(z: number): string {
  const size = Math.abs(z);
  if (size < 1) return "z--calm";
  if (size < 2) return "z--watch";
  return z > 0 ? "z--high" : "z--low";
}

/** The statistics behind a z, one line each: what the tooltip and the phone's sheet show. */
export interface ZStats {
  z?: number | null;
  percentile?: number | null;
  mean?: number | null;
  std?: number | null;
  n: number;
  /** What the window covers (absent in a hand-made answer). */
  coverage?: StatisticsCoverage;
}

export function zStatsLines(stats: ZStats): string[] {
  return [
    `20-day percentile ${formatNumber(stats.percentile, 1)}`,
    `mean ${formatNumber(stats.mean, 2)}, σ ${formatNumber(stats.std, 2)}`,
    `${formatNumber(stats.n, 0)} one-minute closes`,
    ...(stats.coverage?.loading ? [coverageText(DEFAULT_STATS_DAYS, stats.coverage)] : []),
  ];
}

/**
 * The z column (docs/user-guide.md, "Net / lot (₹) and z"): the live spread against its 20-day
 * 1-minute closes. The statistics behind it show on hover, keyboard focus or a tap.
 */
export function ZScoreCell({ symbol }: { symbol: string }) {
  const stats = useSpreadStats(symbol);
  const z = stats?.z;
  if (!stats || z === null || z === undefined) {
    const why =
      stats &&
      `Not enough history (${stats.n} closes in ${
        stats.coverage ? coverageText(DEFAULT_STATS_DAYS, stats.coverage) : "20 days"
      })`;
    return (
      <td className="num z muted col--wide" data-col="z">
        {why ? (
          <TooltipButton details={why} label={`– z-score: ${why}`}>
            –
          </TooltipButton>
        ) : (
          "–"
        )}
      </td>
    );
  }
  return (
    <td className={`num z col--wide ${zClass(z)}`} data-col="z" data-z={z}>
      <TooltipButton
        details={
          <ul className="tooltip__lines">
            {zStatsLines(stats).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        }
        label={`${formatSigned(z, 2)} z-score, show 20-day statistics`}
      >
        {formatSigned(z, 2)}
      </TooltipButton>
    </td>
  );
}
