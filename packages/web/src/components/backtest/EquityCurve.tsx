/** The closed-trade equity as a line under the chart: ₹ against time, 0 marked. */
export function EquityCurve({ points }: { points: readonly (readonly [number, number])[] }) {
  if (points.length < 2) return null;
  const width = 600;
  const height = 120;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(0, ...ys), Math.max(0, ...ys)];
  const x = (t: number) => (x1 > x0 ? ((t - x0) / (x1 - x0)) * width : 0);
  const y = (v: number) => (y1 > y0 ? height - ((v - y0) / (y1 - y0)) * height : height / 2);
  // Steps: the equity moves only at each exit.
  let path = `M${x(xs[0] as number)},${y(ys[0] as number)}`;
  for (let i = 1; i < points.length; i++)
    path += ` H${x(xs[i] as number).toFixed(1)} V${y(ys[i] as number).toFixed(1)}`;
  const last = ys.at(-1) as number;
  return (
    <figure className="backtest-equity" data-testid="backtest-equity">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Equity curve, ending at ₹${last.toFixed(2)}`}
      >
        <line className="backtest-equity__zero" x1={0} x2={width} y1={y(0)} y2={y(0)} />
        <path
          className={
            last >= 0
              ? "backtest-equity__line"
              : "backtest-equity__line backtest-equity__line--down"
          }
          d={path}
        />
      </svg>
      <figcaption className="muted">Equity after each closed trade (net ₹)</figcaption>
    </figure>
  );
}
