import {
  CHART_SYMBOLS,
  type ChartSymbol,
  chartSymbolLabel,
  TIMEFRAMES,
  type Timeframe,
} from "@spreadwatch/core";
import { useId } from "react";
import type { ChartKind } from "../../hooks/useChartSelection.ts";

interface ChartControlsProps {
  commodity: ChartSymbol;
  timeframe: Timeframe;
  kind: ChartKind;
  onCommodity: (commodity: ChartSymbol) => void;
  onTimeframe: (timeframe: Timeframe) => void;
  onKind: (kind: ChartKind) => void;
  onResetZoom: () => void;
  onDownload?: () => void;
}

const KINDS: readonly [ChartKind, string][] = [
  ["line", "Line"],
  ["candles", "Candles"],
];

/** Commodity and timeframe selectors, Line / Candles, Reset Zoom and Download CSV; they wrap on phones. */
export function ChartControls(props: ChartControlsProps) {
  const commodityId = useId();
  const timeframeId = useId();
  return (
    <div className="chart-controls">
      <div className="field chart-controls__field">
        <label className="field__label" htmlFor={commodityId}>
          Commodity
        </label>
        <select
          id={commodityId}
          className="field__input"
          value={props.commodity}
          onChange={(e) => props.onCommodity(e.target.value as ChartSymbol)}
        >
          {CHART_SYMBOLS.map((symbol) => (
            <option key={symbol} value={symbol}>
              {chartSymbolLabel(symbol)}
            </option>
          ))}
        </select>
      </div>
      <div className="field chart-controls__field chart-controls__field--narrow">
        <label className="field__label" htmlFor={timeframeId}>
          Timeframe
        </label>
        <select
          id={timeframeId}
          className="field__input"
          value={props.timeframe}
          onChange={(e) => props.onTimeframe(e.target.value as Timeframe)}
        >
          {TIMEFRAMES.map((tf) => (
            <option key={tf} value={tf}>
              {tf}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="segmented" aria-label="Chart type">
        {KINDS.map(([kind, label]) => (
          <button
            key={kind}
            type="button"
            className="segmented__option"
            aria-pressed={props.kind === kind}
            onClick={() => props.onKind(kind)}
          >
            {label}
          </button>
        ))}
      </fieldset>
      <div className="chart-controls__actions">
        <button type="button" className="button" onClick={props.onResetZoom}>
          Reset Zoom
        </button>
        <button
          type="button"
          className="button"
          onClick={props.onDownload}
          disabled={!props.onDownload}
        >
          Download CSV
        </button>
      </div>
    </div>
  );
}
