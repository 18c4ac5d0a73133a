import type { IndexSpreadRow, Prices } from "@spreadwatch/core";
import type { FreshnessContext } from "../../market/freshness.ts";
import { indexSpreadInputs } from "../../market/inputMarks.ts";
import type { Column } from "../ui/TableHead.tsx";
import { FutureSpotRow, FutureSpotTable } from "./FutureSpotTable.tsx";

const DECIMALS = 2;

/** docs/spec.md §2 "Index Spread table": GIFT NIFTY − NIFTY 50. */
interface IndexSpreadTableProps {
  row: IndexSpreadRow;
  prices: Prices;
  freshness: FreshnessContext;
}

const INDEX_COLUMNS: readonly Column[] = [
  { label: "NIFTY" },
  { label: "Spread", num: true },
  { label: "Future Price (GIFT NIFTY)", num: true },
  { label: "Spot Price (NIFTY 50)", num: true },
];

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
