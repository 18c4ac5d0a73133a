import { useMediaQuery } from "../../hooks/ui/useMediaQuery.ts";
import { KEYBOARD_HINT_ID } from "./plugins/keyboardLevel.ts";
import { keyboardHint, spreadSignText, TOUCH_SCREEN, TOUCH_ZOOM_HINT, ZOOM_HINT } from "./texts.ts";

/** The zoom and keyboard hints and the info box on the sign of the values (docs/spec.md §2). */
export function ChartNotes({
  symbol,
  canCreateAlerts,
  formula,
}: {
  symbol: string;
  /** A definition's formula, for its info box. */
  formula?: string;
  canCreateAlerts: boolean;
}) {
  const sign = spreadSignText(symbol, formula);
  const touch = useMediaQuery(TOUCH_SCREEN);
  return (
    <div className="chart-notes">
      <p className="chart-notes__hint">{touch ? TOUCH_ZOOM_HINT : ZOOM_HINT}</p>
      {/* The plot's description (keyboardLevel.ts), so it is there on touch screens too. */}
      <p className="chart-notes__keys" id={KEYBOARD_HINT_ID}>
        {keyboardHint(canCreateAlerts)}
      </p>
      <aside className="chart-info" aria-label="Reading the chart">
        <p className="chart-info__formula">{sign.formula}</p>
        <p>
          <span className="chart-info__above">{sign.above}</span>{" "}
          <span className="chart-info__below">{sign.below}</span>
        </p>
      </aside>
    </div>
  );
}
