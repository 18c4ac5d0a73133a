import type { ReactNode } from "react";

/** A message laid over the chart area: loading, an error, or why there is nothing to draw. */
export function ChartOverlay({ tone, children }: { tone: "info" | "error"; children: ReactNode }) {
  return (
    <div
      className={`chart__overlay chart__overlay--${tone}`}
      role={tone === "error" ? "alert" : "status"}
      data-testid="chart-overlay"
    >
      <p>{children}</p>
    </div>
  );
}
