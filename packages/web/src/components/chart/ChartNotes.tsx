import type { ChartSymbol } from "@spreadwatch/core";
import { spreadSignText, ZOOM_HINT } from "./texts.ts";

/** The zoom hint and the info box on the sign of the values (spec §2). */
export function ChartNotes({ symbol }: { symbol: ChartSymbol }) {
  const sign = spreadSignText(symbol);
  return (
    <div className="chart-notes">
      <p className="chart-notes__hint">{ZOOM_HINT}</p>
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
