import { TIMEFRAMES, type Timeframe } from "@spreadwatch/core";
import type { ChartKind } from "../../hooks/chart/useChartSelection.ts";
import { SelectField } from "../ui/Field.tsx";

interface ChartControlsProps {
  commodity: string;
  /** The built-in chart symbols, then the user's definitions' SP7_BUY, SP7_SELL … */
  commodities: readonly string[];
  /** "Gold Buy", "GOLD near/next calendar Sell". */
  label: (commodity: string) => string;
  timeframe: Timeframe;
  kind: ChartKind;
  onCommodity: (commodity: string) => void;
  onTimeframe: (timeframe: Timeframe) => void;
  onKind: (kind: ChartKind) => void;
  onResetZoom: () => void;
  onDownload?: () => void;
  /** Whether the ± σ bands are on; undefined hides the toggle (no statistics for the symbol). */
  bands?: boolean;
  onBands: (on: boolean) => void;
  /** Whether candles before a roll are shifted by its gap; undefined hides the toggle (no roll shown). */
  adjusted?: boolean;
  onAdjusted: (on: boolean) => void;
}

const KINDS: readonly [ChartKind, string][] = [
  ["line", "Line"],
  ["candles", "Candles"],
];

/** Commodity and timeframe selectors, Line / Candles, the σ bands and back-adjusted toggles, Reset Zoom and Download CSV; they wrap on phones. */
export function ChartControls(props: ChartControlsProps) {
  return (
    <div className="chart-controls">
      <SelectField
        label="Commodity"
        className="chart-controls__field"
        options={props.commodities}
        value={props.commodity}
        onChange={props.onCommodity}
        format={props.label}
      />
      <SelectField
        label="Timeframe"
        className="chart-controls__field chart-controls__field--narrow"
        options={TIMEFRAMES}
        value={props.timeframe}
        onChange={props.onTimeframe}
      />
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
        {props.bands !== undefined && (
          <button
            type="button"
            className="button chart-controls__toggle"
            aria-pressed={props.bands}
            onClick={() => props.onBands(!props.bands)}
          >
            ±σ Bands
          </button>
        )}
        {props.adjusted !== undefined && (
          <button
            type="button"
            className="button chart-controls__toggle"
            aria-pressed={props.adjusted}
            title="Shift the candles before each roll by the gap at the roll, so contract changes do not read as moves"
            onClick={() => props.onAdjusted(!props.adjusted)}
          >
            Back-adjusted
          </button>
        )}
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
