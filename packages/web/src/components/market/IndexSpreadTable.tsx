import type { IndexSpreadRow, Prices } from "@spreadwatch/core";
import type { FreshnessContext } from "../../market/freshness.ts";
import { indexSpreadInputs } from "../../market/inputMarks.ts";
import { FutureSpotRow, FutureSpotTable, futureSpotColumns } from "./FutureSpotTable.tsx";

const DECIMALS = 2;

/** docs/spec.md §2 "Index Spread table": GIFT NIFTY − NIFTY 50. */
interface IndexSpreadTableProps {
  row: IndexSpreadRow;
  prices: Prices;
  freshness: FreshnessContext;
}

const INDEX_COLUMNS = futureSpotColumns(
  "NIFTY",
  "Future Price (GIFT NIFTY)",
  "Spot Price (NIFTY 50)",
);

export function IndexSpreadTable({ row, prices, freshness }: IndexSpreadTableProps) {
  return (
    <FutureSpotTable title="Index Spread" columns={INDEX_COLUMNS} className="panel--index">
      <FutureSpotRow
        symbol="NIFTY"
        name="NIFTY"
        {...row}
        inputs={indexSpreadInputs(prices)}
        freshness={freshness}
        spreadDecimals={DECIMALS}
        priceDecimals={DECIMALS}
      />
    </FutureSpotTable>
  );
}
