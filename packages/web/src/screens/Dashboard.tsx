import { indexSpreadRow, spotSpreadRows } from "@spreadwatch/core";
import { AccountMenu } from "../components/AccountMenu.tsx";
import { AppHeader } from "../components/AppHeader.tsx";
import { IndexSpreadTable } from "../components/IndexSpreadTable.tsx";
import { OtherSessionsNotice } from "../components/OtherSessionsNotice.tsx";
import { RawPriceTable } from "../components/RawPriceTable.tsx";
import { SpotSpreadTable } from "../components/SpotSpreadTable.tsx";
import { SpreadTable } from "../components/SpreadTable.tsx";
import { StreamStatus } from "../components/StreamStatus.tsx";
import { type MarketSnapshot, useMarketSnapshot } from "../hooks/useMarketSnapshot.ts";
import type { SessionUser } from "../session/cache.ts";

export function Dashboard({ user }: { user: SessionUser }) {
  const { snapshot, live, interrupted } = useMarketSnapshot();
  return (
    <div className="page">
      <AppHeader>
        <AccountMenu user={user} />
      </AppHeader>
      <main className="dashboard">
        <OtherSessionsNotice />
        <div className="dashboard__toolbar">
          <StreamStatus live={live} interrupted={interrupted} />
        </div>
        {snapshot ? (
          <MarketTables snapshot={snapshot} />
        ) : (
          <p className="loading">Loading prices…</p>
        )}
      </main>
    </div>
  );
}

function MarketTables({ snapshot }: { snapshot: MarketSnapshot }) {
  const { prices, calculations } = snapshot;
  const spotRows = spotSpreadRows(prices);
  const indexRow = indexSpreadRow(prices);
  return (
    <div className="dashboard__grid">
      <div className="dashboard__main">
        <SpreadTable prices={prices} calculations={calculations} />
      </div>
      <div className="dashboard__side">
        {spotRows.length > 0 && <SpotSpreadTable rows={spotRows} />}
        {indexRow && <IndexSpreadTable row={indexRow} />}
        <RawPriceTable prices={prices} />
      </div>
    </div>
  );
}
