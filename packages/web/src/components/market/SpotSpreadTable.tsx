import { type Prices, type SpotSpreadRow, spreadDecimals } from "@spreadwatch/core";
import type { FreshnessContext } from "../../market/freshness.ts";
import { spotSpreadInputs } from "../../market/inputMarks.ts";
import type { LegProblem } from "../../market/legProblems.ts";
import { FutureSpotRow, FutureSpotTable, futureSpotColumns } from "./FutureSpotTable.tsx";

const PRICE_DECIMALS = 2;

interface SpotSpreadTableProps {
  rows: SpotSpreadRow[];
  prices: Prices;
  freshness: FreshnessContext;
}

/** The spread cell's title when there is no spread: the crossed book, or the absent CME book. */
function cannotComputeTitle(id: string, problems: LegProblem[]): string {
  const crossed = problems.find((problem) => problem.kind === "crossed");
  return `Cannot compute: ${crossed ? crossed.text : `no CME ${id} bid and ask`}`;
}

const SPOT_COLUMNS = futureSpotColumns("Symbol", "Future Price", "Spot Price");

/** docs/spec.md §2 "Spot Spread table": CME future mid − spot, in USD. */
export function SpotSpreadTable({ rows, prices, freshness }: SpotSpreadTableProps) {
  return (
    <FutureSpotTable title="Spot Spread" columns={SPOT_COLUMNS}>
      {rows.map((row) => (
        <FutureSpotRow
          key={row.id}
          symbol={row.spotKey}
          name={row.name}
          spread={row.spread}
          future={row.future}
          spot={row.spot}
          inputs={spotSpreadInputs(row.id, row.spotKey, prices)}
          freshness={freshness}
          spreadDecimals={spreadDecimals(row.id)}
          priceDecimals={PRICE_DECIMALS}
          missingTitle={(problems) => cannotComputeTitle(row.id, problems)}
        />
      ))}
    </FutureSpotTable>
  );
}
