import {
  backAdjustCandles,
  type Candle,
  CHART_INVALID_DATA_TEXT,
  CHART_LOAD_ERROR_TEXT,
  CHART_LOADING_TEXT,
  CHART_NO_DATA_TEXT,
  CHART_SYMBOLS,
  chartSymbolLabel,
  formatChartTitle,
  isChartSymbol,
  MIN_CHART_HEIGHT_PX,
  parseExecutableSymbol,
  rollLabel,
  spreadDecimals,
} from "@spreadwatch/core";
import { useCallback, useMemo, useRef, useState } from "react";
import { Link } from "wouter";
import { useHistoryState } from "wouter/use-browser-location";
import { ScreenAccount } from "../components/app/AccountMenu.tsx";
import { AppHeader } from "../components/app/AppHeader.tsx";
import { ServerUnreachable } from "../components/app/ServerUnreachable.tsx";
import { StreamStatus } from "../components/app/StreamStatus.tsx";
import { BacktestPanel } from "../components/backtest/BacktestPanel.tsx";
import { ruleFromAlert } from "../components/backtest/rule-form.ts";
import { ChartControls } from "../components/chart/ChartControls.tsx";
import { ChartNotes } from "../components/chart/ChartNotes.tsx";
import { ChartOverlay } from "../components/chart/ChartOverlay.tsx";
import { CreateAlertPopover } from "../components/chart/CreateAlertPopover.tsx";
import { downloadCsv } from "../components/chart/downloadCsv.ts";
import type { LevelPick } from "../components/chart/plugins/levelPick.ts";
import type { TradeMark } from "../components/chart/plugins/trades.ts";
import { SpreadChart, type SpreadChartHandle } from "../components/chart/SpreadChart.tsx";
import { statisticsSourceText } from "../components/chart/texts.ts";
import { useChartAlerts } from "../components/chart/useChartAlerts.tsx";
import { useFillBelow } from "../components/chart/useFillBelow.ts";
import { FINE_SCALE, SPREAD_SCALE } from "../components/chart/valueScale.ts";
import { TicketLink } from "../components/market/TicketLink.tsx";
import { OpenPositionTrigger } from "../components/positions/OpenPosition.tsx";
import { useChartBands } from "../hooks/chart/useChartBands.ts";
import { useChartData } from "../hooks/chart/useChartData.ts";
import { useChartHistory } from "../hooks/chart/useChartHistory.ts";
import { useChartRolls } from "../hooks/chart/useChartRolls.ts";
import { useChartSelection } from "../hooks/chart/useChartSelection.ts";
import { useLiveCandles } from "../hooks/chart/useLiveCandles.ts";
import { useMarketSnapshot } from "../hooks/market/useMarketSnapshot.ts";
import {
  executableSymbols,
  symbolLabel,
  useOwnSpreads,
} from "../hooks/market/useSpreadDefinitions.ts";
import { useSpreadStats } from "../hooks/market/useSpreadStats.ts";
import { useTheme } from "../hooks/ui/useTheme.ts";
import { chartStreamSelection } from "../market/chartSymbols.ts";
import { definitionDecimals } from "../market/definitionRows.ts";
import type { SessionUser } from "../session/cache.ts";

const NO_CANDLES: readonly Candle[] = [];

/** docs/spec.md §2 "Advanced Spread Chart". */
export function AdvancedChart({ user }: { user: SessionUser }) {
  const selection = useChartSelection();
  const { commodity, timeframe, kind } = selection;
  const chart = useChartData({ commodity, timeframe });
  // The chart shows one symbol: its stream carries only that symbol's entry or inputs.
  const shownSymbol = chart.shown.commodity;
  const streamSelection = useMemo(() => chartStreamSelection(shownSymbol), [shownSymbol]);
  const { snapshot, live, interrupted, unreachable } = useMarketSnapshot(streamSelection);
  const theme = useTheme();
  const plot = useRef<SpreadChartHandle>(null);
  const panel = useRef<HTMLElement>(null);
  useFillBelow(panel);
  const { shown, state } = chart;
  const loaded = useChartHistory(shown, state.status === "ok" ? state.candles : NO_CANDLES);
  const candles = useLiveCandles(
    loaded.candles,
    shown.commodity,
    shown.timeframe,
    snapshot,
    chart.refetch,
  );
  // The user's definitions join the select after the built-ins (docs/user-guide.md "Spreads of your
  // own").
  const ownSpreads = useOwnSpreads();
  const commodities = useMemo(() => {
    const own = executableSymbols(ownSpreads);
    // A definition opened from elsewhere before the list has loaded keeps its place.
    const extra = own.includes(commodity) || isChartSymbol(commodity) ? [] : [commodity];
    return [...CHART_SYMBOLS, ...own, ...extra];
  }, [ownSpreads, commodity]);
  const label = (symbol: string) =>
    isChartSymbol(symbol) ? chartSymbolLabel(symbol) : symbolLabel(symbol, ownSpreads);
  const definitionOf = (symbol: string) => {
    const parsed = parseExecutableSymbol(symbol);
    return parsed && ownSpreads.find((spread) => spread.symbol === parsed.symbol);
  };
  const shownDefinition = definitionOf(shown.commodity);
  // Marked only where there is something to mark: a leg put in use by the spread has no closes
  // from before it, and then every candle is the spread's own.
  const legHistoryUntil =
    chart.legHistoryUntil !== undefined &&
    (candles[0]?.timestamp ?? Infinity) < chart.legHistoryUntil
      ? chart.legHistoryUntil
      : undefined;
  const rolls = useChartRolls(shown.commodity, loaded.candles, shownDefinition?.legs);
  const marks = useMemo(
    () => rolls.map((roll) => ({ key: roll.key, at: roll.at, label: rollLabel(roll) })),
    [rolls],
  );
  // Unadjusted unless asked: the prices as traded, with each roll marked and the line broken.
  const adjust = selection.adjusted && rolls.length > 0;
  const drawn = useMemo(
    () => (adjust ? backAdjustCandles(candles, rolls) : candles),
    [adjust, candles, rolls],
  );
  // SEAM: the statistics engineer's market.stats feeds this (see useChartBands).
  const bands = useChartBands(shown.commodity);
  const alerts = useChartAlerts(shown.commodity, user.alerts_enabled);
  // A backtest's fills, marked on the chart; "How would this alert have done?" arrives with
  // the alert's metric and threshold in history.state (docs/backtest.md).
  const [tradeMarks, setTradeMarks] = useState<readonly TradeMark[]>([]);
  const onTrades = useCallback((marks: readonly TradeMark[]) => setTradeMarks(marks), []);
  const backtestSpread = parseExecutableSymbol(shown.commodity)?.symbol;
  const navState: unknown = useHistoryState();
  const fromAlert =
    typeof navState === "object" && navState !== null && "backtest" in navState
      ? (navState.backtest as { metric: string; threshold: number })
      : undefined;
  const stats = useSpreadStats(shown.commodity);
  const mean = stats?.mean ?? undefined;
  const waitingForMean = fromAlert?.metric === "spread" && mean === undefined;
  const initialRule = useMemo(
    () => (fromAlert && !waitingForMean ? ruleFromAlert(fromAlert, mean) : undefined),
    // The alert's rule is made once, when the mean is known; later means do not re-run it.
    [fromAlert?.metric, fromAlert?.threshold, waitingForMean],
  );
  const [pick, setPick] = useState<{
    value: number;
    left: number;
    top: number;
    keyboard: boolean;
  }>();
  const onPick = (p: LevelPick) => {
    const box = panel.current?.getBoundingClientRect();
    if (!alerts.canCreate || !box) return;
    const { value, keyboard = false } = p;
    setPick({ value, left: p.clientX - box.left, top: p.clientY - box.top, keyboard });
  };

  return (
    <div className="page">
      <AppHeader title="Advanced Spread Chart">
        <Link href="/">Back to Dashboard</Link>
        <ScreenAccount user={user} />
      </AppHeader>
      <main className="screen chart-screen">
        <div className="chart-screen__top">
          <ChartControls
            commodity={commodity}
            commodities={commodities}
            label={label}
            timeframe={timeframe}
            kind={kind}
            onCommodity={(c) => selection.select({ commodity: c })}
            onTimeframe={(tf) => selection.select({ timeframe: tf })}
            onKind={(k) => selection.select({ kind: k })}
            bands={bands ? selection.bands : undefined}
            onBands={(on) => selection.select({ bands: on })}
            adjusted={rolls.length > 0 ? selection.adjusted : undefined}
            onAdjusted={(on) => selection.select({ adjusted: on })}
            onResetZoom={() => plot.current?.resetZoom()}
            onDownload={
              state.status === "ok" && !chart.loading
                ? () => downloadCsv(shown.commodity, shown.timeframe, drawn, adjust)
                : undefined
            }
          />
          <OpenPositionTrigger symbol={commodity} />
          <TicketLink symbol={commodity} small />
          <StreamStatus live={live} interrupted={interrupted} unreachable={unreachable} />
        </div>
        {unreachable && <ServerUnreachable />}
        <ChartNotes
          symbol={commodity}
          formula={definitionOf(commodity)?.formula}
          canCreateAlerts={alerts.canCreate}
        />
        {stats && (
          <p className="chart-leg-note" data-field="statistics-source">
            {statisticsSourceText(stats)}
          </p>
        )}
        {legHistoryUntil !== undefined && (
          <p className="chart-leg-note" data-leg-history-until={legHistoryUntil}>
            Candles before {formatChartTitle(legHistoryUntil)} IST (the shaded span) are computed
            from the legs' one-minute closes at mid, from before this spread existed; after it, from
            its own live values.
          </p>
        )}
        <section
          ref={panel}
          className="panel chart"
          aria-label="Spread chart"
          style={{ minHeight: MIN_CHART_HEIGHT_PX }}
          data-chart-status={chart.loading ? "loading" : state.status}
          data-adjusted={adjust || undefined}
        >
          {state.status === "ok" && (
            <SpreadChart
              ref={plot}
              candles={drawn}
              timeframe={shown.timeframe}
              kind={kind}
              theme={theme}
              dataKey={`${shown.commodity}:${shown.timeframe}`}
              bands={selection.bands ? bands : undefined}
              thresholds={alerts.lines}
              rolls={marks}
              trades={tradeMarks}
              legHistoryUntil={legHistoryUntil}
              scale={
                shownDefinition && definitionDecimals(candles.at(-1)?.close) === 4
                  ? FINE_SCALE
                  : SPREAD_SCALE
              }
              onReachOldest={loaded.loadOlder}
              onPick={onPick}
            />
          )}
          {pick && (
            <CreateAlertPopover
              value={pick.value}
              decimals={
                shownDefinition
                  ? definitionDecimals(candles.at(-1)?.close)
                  : spreadDecimals(shown.commodity)
              }
              left={pick.left}
              top={pick.top}
              autoFocus={pick.keyboard}
              onCreate={(threshold) => {
                setPick(undefined);
                alerts.create(threshold);
              }}
              onClose={() => {
                setPick(undefined);
                // Escape from an offer the keyboard opened goes back to the price it was at.
                if (pick.keyboard) plot.current?.focus();
              }}
            />
          )}
          <Overlay status={state.status} loading={chart.loading} />
        </section>
        {backtestSpread && !waitingForMean && (
          <BacktestPanel
            key={`${backtestSpread}:${initialRule ? JSON.stringify(initialRule) : ""}`}
            spread={backtestSpread}
            initial={initialRule}
            onTrades={onTrades}
          />
        )}
      </main>
      {alerts.modal(candles.at(-1)?.close)}
    </div>
  );
}

function Overlay({ status, loading }: { status: string; loading: boolean }) {
  if (loading) return <ChartOverlay tone="info">{CHART_LOADING_TEXT}</ChartOverlay>;
  if (status === "error") return <ChartOverlay tone="error">{CHART_LOAD_ERROR_TEXT}</ChartOverlay>;
  if (status === "no-data") return <ChartOverlay tone="info">{CHART_NO_DATA_TEXT}</ChartOverlay>;
  if (status === "invalid")
    return <ChartOverlay tone="info">{CHART_INVALID_DATA_TEXT}</ChartOverlay>;
  return null;
}
