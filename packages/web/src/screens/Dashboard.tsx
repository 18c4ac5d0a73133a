import { indexSpreadRow, spotSpreadRows } from "@spreadwatch/core";
import { type ComponentProps, useMemo, useRef, useState } from "react";
import type { AlertView } from "../alerts/texts.ts";
import type { AlertModal as AlertModalScreen } from "../components/alerts/AlertModal.tsx";
import { AlertSwitches } from "../components/alerts/AlertSwitches.tsx";
import { DashboardWatch } from "../components/alerts/DashboardWatch.tsx";
import { groupBySymbol, type RowAlerts } from "../components/alerts/rowAlerts.ts";
import { AccountMenu } from "../components/app/AccountMenu.tsx";
import { AppHeader } from "../components/app/AppHeader.tsx";
import { LazyDialog } from "../components/app/LazyBoundary.tsx";
import { lazyPart } from "../components/app/lazyPart.ts";
import { OtherSessionsNotice } from "../components/app/OtherSessionsNotice.tsx";
import { ServerUnreachable } from "../components/app/ServerUnreachable.tsx";
import { StreamStatus } from "../components/app/StreamStatus.tsx";
import { IndexSpreadTable } from "../components/market/IndexSpreadTable.tsx";
import { DefinitionDetailsSheet, RowDetailsSheet } from "../components/market/lazySheets.ts";
import { RawPriceTable } from "../components/market/RawPriceTable.tsx";
import { SpotSpreadTable } from "../components/market/SpotSpreadTable.tsx";
import { SpreadTable } from "../components/market/SpreadTable.tsx";
import { MySpreadsTable } from "../components/spreads/MySpreadsTable.tsx";
import type { SpreadBuilder as SpreadBuilderDialog } from "../components/spreads/SpreadBuilder.tsx";
import { useAlertList } from "../hooks/alerts/useAlerts.ts";
import { useDashboardSelection } from "../hooks/market/useDashboardSelection.ts";
import { type FeedHealthQuery, useFeedHealth } from "../hooks/market/useFeedHealth.ts";
import { useInstrumentInfo } from "../hooks/market/useInstruments.ts";
import { type MarketSnapshot, useMarketSnapshot } from "../hooks/market/useMarketSnapshot.ts";
import { type SpreadDefinitionView, useOwnSpreads } from "../hooks/market/useSpreadDefinitions.ts";
import { useKeyboardScroll } from "../hooks/ui/useKeyboardScroll.ts";
import { useNow } from "../hooks/ui/useNow.ts";
import { usePrefetchWhenIdle } from "../hooks/ui/usePrefetchWhenIdle.ts";
import { providersByKey } from "../market/feedHealth.ts";
import type { SessionUser } from "../session/cache.ts";

// What the dashboard opens on a click (an alert's form, the spread builder, the alerts section
// and its history) loads after the tables show, not with them (docs/decisions.md "What the
// first load carries").
const AlertModal = lazyPart<ComponentProps<typeof AlertModalScreen>>(() =>
  import("../components/alerts/AlertModal.tsx").then((module) => module.AlertModal),
);
const SpreadBuilder = lazyPart<ComponentProps<typeof SpreadBuilderDialog>>(() =>
  import("../components/spreads/SpreadBuilder.tsx").then((module) => module.SpreadBuilder),
);
const AlertsSection = lazyPart<object>(() =>
  import("../components/alerts/AlertsSection.tsx").then((module) => module.AlertsSection),
);
const ON_CLICK = [
  AlertModal,
  SpreadBuilder,
  AlertsSection,
  RowDetailsSheet,
  DefinitionDetailsSheet,
];

interface ModalTarget {
  symbol: string;
  alert?: AlertView;
}

export function Dashboard({ user }: { user: SessionUser }) {
  const scrollBox = useRef<HTMLDivElement>(null);
  const ownSpreads = useOwnSpreads();
  const selection = useDashboardSelection(scrollBox, ownSpreads);
  const { snapshot, live, interrupted, unreachable } = useMarketSnapshot(selection);
  usePrefetchWhenIdle(snapshot !== undefined, ON_CLICK);
  const health = useFeedHealth();
  // docs/spec.md §6: alerts_enabled gates the section, the bells, the watcher and the notifications.
  const alertsOn = user.alerts_enabled;
  const list = useAlertList(alertsOn);
  const alerts = alertsOn ? list.data?.alerts : undefined;
  const [sectionShown, setSectionShown] = useState(false);
  useKeyboardScroll(scrollBox);
  const [modal, setModal] = useState<ModalTarget>();
  // The spread builder: `spread` is the definition being edited, absent for a new one.
  const [builder, setBuilder] = useState<{ spread?: SpreadDefinitionView }>();
  const mySpreads = useMemo(
    () => ({
      spreads: ownSpreads,
      onNew: () => setBuilder({}),
      onEdit: (spread: SpreadDefinitionView) => setBuilder({ spread }),
    }),
    [ownSpreads],
  );

  const rowAlerts = useMemo<RowAlerts | undefined>(
    () =>
      alertsOn
        ? {
            bySymbol: groupBySymbol(alerts ?? []),
            onAdd: (symbol) => setModal({ symbol }),
            onEdit: (symbol, alert) => setModal({ symbol, alert }),
          }
        : undefined,
    [alertsOn, alerts],
  );

  return (
    <div className="page page--dashboard" ref={scrollBox}>
      <AppHeader>
        <AccountMenu user={user} />
      </AppHeader>
      <main className="dashboard">
        {unreachable && <ServerUnreachable />}
        <OtherSessionsNotice />
        <div className="dashboard__toolbar">
          {alertsOn && (
            <button
              type="button"
              className="button button--small"
              aria-expanded={sectionShown}
              aria-controls="alerts-section"
              onClick={() => setSectionShown(!sectionShown)}
            >
              {sectionShown ? "Hide Alerts Section" : "Show Alerts Section"}
            </button>
          )}
          {alertsOn && <AlertSwitches />}
          <StreamStatus
            live={live}
            interrupted={interrupted}
            unreachable={unreachable}
            marketAt={snapshot?.prices.timestamp}
          />
        </div>
        {alertsOn && sectionShown && (
          <LazyDialog what="section">
            <AlertsSection />
          </LazyDialog>
        )}
        {snapshot ? (
          <MarketTables
            snapshot={snapshot}
            alerts={rowAlerts}
            health={health}
            unreachable={unreachable}
            mySpreads={mySpreads}
          />
        ) : (
          <p className="loading">Loading prices…</p>
        )}
      </main>
      {rowAlerts && modal && (
        <LazyDialog what="dialog">
          <AlertModal
            key={`${modal.symbol}:${modal.alert?.id ?? "new"}`}
            symbol={modal.symbol}
            alert={modal.alert}
            symbolAlerts={rowAlerts.bySymbol.get(modal.symbol) ?? []}
            currentSpread={spreadNow(snapshot, modal.symbol)}
            onClose={() => setModal(undefined)}
          />
        </LazyDialog>
      )}
      {builder && (
        <LazyDialog what="dialog">
          <SpreadBuilder
            spread={builder.spread}
            isAdmin={user.is_admin}
            alertCount={
              builder.spread
                ? (alerts ?? []).filter((alert) =>
                    [`${builder.spread?.symbol}_BUY`, `${builder.spread?.symbol}_SELL`].includes(
                      alert.commodityType,
                    ),
                  ).length
                : 0
            }
            onClose={() => setBuilder(undefined)}
          />
        </LazyDialog>
      )}
      <DashboardWatch user={user} alerts={alerts} snapshot={snapshot} health={health} />
    </div>
  );
}

/** The value of a built-in's or a definition's symbol now, for the alert modal's placeholder. */
function spreadNow(snapshot: MarketSnapshot | undefined, symbol: string): number | undefined {
  const entry = (
    snapshot?.calculations as Record<string, { spread?: unknown } | null> | undefined
  )?.[symbol];
  return typeof entry?.spread === "number" ? entry.spread : undefined;
}

interface MySpreadsProps {
  spreads: readonly SpreadDefinitionView[];
  onNew: () => void;
  onEdit: (spread: SpreadDefinitionView) => void;
}

interface MarketTablesProps {
  snapshot: MarketSnapshot;
  alerts?: RowAlerts;
  health: FeedHealthQuery;
  unreachable: boolean;
  mySpreads: MySpreadsProps;
}

function MarketTables({ snapshot, alerts, health, unreachable, mySpreads }: MarketTablesProps) {
  const { prices, calculations } = snapshot;
  // Ticks every second, so rows grey and un-grey as their inputs age without a new snapshot.
  const now = useNow();
  const providers = useMemo(() => providersByKey(health.data?.providers), [health.data]);
  const freshness = useMemo(() => ({ now, providers }), [now, providers]);
  const instruments = useInstrumentInfo(prices);
  // What both spread tables read of the market.
  const market = { prices, calculations, alerts, freshness };
  const spotRows = spotSpreadRows(prices);
  const indexRow = indexSpreadRow(prices);
  return (
    <div className="dashboard__grid">
      <div className="dashboard__main">
        <SpreadTable {...market} />
        <MySpreadsTable {...mySpreads} {...market} />
      </div>
      <div className="dashboard__side">
        {spotRows.length > 0 && (
          <SpotSpreadTable rows={spotRows} prices={prices} freshness={freshness} />
        )}
        {indexRow && <IndexSpreadTable row={indexRow} prices={prices} freshness={freshness} />}
        <RawPriceTable
          prices={prices}
          health={health}
          freshness={freshness}
          unreachable={unreachable}
          instruments={instruments}
        />
      </div>
    </div>
  );
}
