// A sweep of two rule fields (docs/backtest.md, "Sweeps"): net ₹ of every cell as a heat map,
// in sample (first 70 %) beside out of sample (last 30 %), with the warning a sweep needs. The
// cells are computed in the browser, in a Web Worker (useSweep), on minutes fetched once.
import { formatInr, RULE_FIELDS, type RuleField, type SweepCell } from "@spreadwatch/core";
import { memo, type PointerEvent as ReactPointerEvent, useMemo, useState } from "react";
import { type SweepBody, useSweep } from "../../hooks/positions/useSweep.ts";
import { useRevealed } from "../../hooks/ui/useRevealed.ts";
import { ScrollRegion } from "../ui/ScrollRegion.tsx";
import { backtestRequest, type RuleForm } from "./rule-form.ts";

interface Axis {
  field: RuleField;
  from: string;
  to: string;
  step: string;
}

const LABELS: Record<RuleField, string> = {
  sellAbove: "Sell above",
  exitShortAt: "Buy back at",
  buyBelow: "Buy below",
  exitLongAt: "Sell out at",
  targetInr: "Target ₹",
  stopInr: "Stop ₹",
  maxHoldMinutes: "Max hold",
  cooldownMinutes: "Cooldown",
};

function AxisFields({
  name,
  axis,
  onChange,
}: {
  name: "x" | "y";
  axis: Axis;
  onChange: (a: Axis) => void;
}) {
  return (
    <fieldset className="sweep__axis">
      <legend>{name === "x" ? "Across" : "Down"}</legend>
      <select
        aria-label={`Sweep ${name} field`}
        value={axis.field}
        onChange={(e) => onChange({ ...axis, field: e.target.value as RuleField })}
      >
        {RULE_FIELDS.map((f) => (
          <option key={f} value={f}>
            {LABELS[f]}
          </option>
        ))}
      </select>
      {(["from", "to", "step"] as const).map((part) => (
        <input
          key={part}
          aria-label={`Sweep ${name} ${part}`}
          inputMode="decimal"
          value={axis[part]}
          placeholder={part}
          onChange={(e) => onChange({ ...axis, [part]: e.target.value })}
        />
      ))}
    </fieldset>
  );
}

/** Colour steps of a cell, each way: its |net| over the map's largest, to the nearest sixth. */
const STEPS = 6;
/** About this many cells (both maps) drawn per frame: each frame's task stays short (useRevealed). */
const CELLS_PER_FRAME = 80;

interface MapRow {
  y: number;
  /** Per column, the cell's net ₹ and colour class; undefined where the sweep has no cell. */
  cells: ({ net: number; tone: string } | undefined)[];
}

/** One map's grid, computed once per sweep: the columns (x ascending) and rows (y ascending). */
function heatGrid(cells: readonly SweepCell[], pick: (c: SweepCell) => number) {
  const xs = [...new Set(cells.map((c) => c.x))].sort((a, b) => a - b);
  const ys = [...new Set(cells.map((c) => c.y))].sort((a, b) => a - b);
  const byKey = new Map(cells.map((c) => [`${c.x}|${c.y}`, pick(c)]));
  const worst = Math.max(1, ...cells.map((c) => Math.abs(pick(c))));
  const rows: MapRow[] = ys.map((y) => ({
    y,
    cells: xs.map((x) => {
      const net = byKey.get(`${x}|${y}`);
      if (net === undefined) return undefined;
      const step = Math.round((Math.abs(net) / worst) * STEPS);
      return { net, tone: step === 0 ? "" : ` sweep__cell--${net >= 0 ? "gain" : "loss"}-${step}` };
    }),
  }));
  return { xs, rows };
}

const cellText = (net: number) =>
  Math.abs(net) >= 100_000 ? `${(net / 100_000).toFixed(1)}L` : String(Math.round(net));

/**
 * A row of cells: memoised, so drawing the next rows does not render the drawn ones again. A
 * class per colour step rather than a style per cell: 800 cells share a dozen styles.
 */
const HeatRow = memo(function HeatRow({ row }: { row: MapRow }) {
  return (
    <tr>
      <th scope="row">{row.y}</th>
      {row.cells.map((cell, i) =>
        cell ? (
          <td key={i} className={`sweep__cell${cell.tone}`} data-net={cell.net}>
            {cellText(cell.net)}
          </td>
        ) : (
          <td key={i} className="sweep__cell sweep__cell--none" />
        ),
      )}
    </tr>
  );
});

function HeatMap({
  title,
  axes,
  grid,
  rows,
}: {
  title: string;
  /** The swept fields' names, for a screen reader: "Buy back at down, Sell above across". */
  axes: string;
  grid: ReturnType<typeof heatGrid>;
  /** How many rows are drawn yet. */
  rows: number;
}) {
  // The exact figure on hover, set on the cell when first pointed at: a title on each of 800
  // cells up front would be 800 formatted numbers before the map shows.
  const hint = (event: ReactPointerEvent<HTMLTableElement>) => {
    const td = (event.target as Element).closest?.("td[data-net]");
    if (!(td instanceof HTMLTableCellElement) || td.title) return;
    const tr = td.parentElement as HTMLTableRowElement;
    const x = grid.xs[td.cellIndex - 1];
    const y = grid.rows[tr.sectionRowIndex]?.y;
    td.title = `${x} × ${y}: ${formatInr(Number(td.dataset.net))}`;
  };
  return (
    <figure className="sweep__map">
      <figcaption>{title}</figcaption>
      <ScrollRegion label={title}>
        <table className="sweep__table" onPointerOver={hint}>
          <thead>
            <tr>
              <th>
                <span className="visually-hidden">{axes}</span>
              </th>
              {grid.xs.map((x) => (
                <th key={x} scope="col">
                  {x}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.rows.slice(0, rows).map((row) => (
              <HeatRow key={row.y} row={row} />
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </figure>
  );
}

/**
 * The two maps, drawn a few rows at a time (useRevealed) so that no main-thread task from the
 * sweep's end to the maps being shown is long (docs/backtest.md, "Sweeps"); busy until drawn.
 */
function HeatMaps({ cells, body }: { cells: readonly SweepCell[]; body: SweepBody | undefined }) {
  const inSample = useMemo(() => heatGrid(cells, (c) => c.inSample.netInr), [cells]);
  const outOfSample = useMemo(() => heatGrid(cells, (c) => c.outOfSample.netInr), [cells]);
  const total = inSample.rows.length;
  const chunk = Math.max(1, Math.floor(CELLS_PER_FRAME / (2 * Math.max(1, inSample.xs.length))));
  const rows = useRevealed(total, chunk, cells);
  const axes = body
    ? `${LABELS[body.sweep.y.field as RuleField]} down, ${LABELS[body.sweep.x.field as RuleField]} across`
    : "";
  return (
    <div className="sweep__maps" aria-busy={rows < total}>
      <HeatMap title="In sample (first 70 %), net ₹" axes={axes} grid={inSample} rows={rows} />
      <HeatMap
        title="Out of sample (last 30 %), net ₹"
        axes={axes}
        grid={outOfSample}
        rows={rows}
      />
    </div>
  );
}

export function SweepSection({ spread, form }: { spread: string; form: RuleForm }) {
  const sweep = useSweep();
  const [x, setX] = useState<Axis>({ field: "sellAbove", from: "500", to: "700", step: "50" });
  const [y, setY] = useState<Axis>({ field: "exitShortAt", from: "200", to: "400", step: "50" });
  const axis = (a: Axis) => ({
    field: a.field,
    from: Number(a.from),
    to: Number(a.to),
    step: Number(a.step),
  });
  const run = () =>
    void sweep.run({
      ...backtestRequest(form, spread, Date.now()),
      sweep: { x: axis(x), y: axis(y) },
    } as SweepBody);
  const cells = sweep.cells;
  return (
    <div
      className="sweep"
      data-testid="backtest-sweep"
      data-request={sweep.body ? JSON.stringify(sweep.body) : undefined}
    >
      <h3>Sweep two settings</h3>
      <div className="sweep__controls">
        <AxisFields name="x" axis={x} onChange={setX} />
        <AxisFields name="y" axis={y} onChange={setY} />
        <button type="button" className="button" onClick={run} disabled={sweep.running}>
          {sweep.running ? "Sweeping…" : "Run sweep"}
        </button>
      </div>
      {sweep.running && (
        <p className="sweep__progress" role="status">
          <progress max={Math.max(1, sweep.total)} value={sweep.done} aria-label="Sweep progress" />{" "}
          {sweep.done} of {sweep.total} rows
        </p>
      )}
      {sweep.error && (
        <p className="backtest__error" role="alert">
          {sweep.error}
        </p>
      )}
      {cells && (
        <>
          <p className="sweep__warning" role="note">
            The best cell of a sweep flatters: it was picked on the same history it is scored on.
            Trust a setting only if it also holds up out of sample (the last 30 %).
          </p>
          <HeatMaps cells={cells} body={sweep.body} />
        </>
      )}
    </div>
  );
}
