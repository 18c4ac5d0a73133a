// A sweep of two rule fields (docs/backtest.md, "Sweeps"): net ₹ of every cell as a heat map,
// in sample (first 70 %) beside out of sample (last 30 %), with the warning a sweep needs. The
// cells are computed in the browser, in a Web Worker (useSweep), on minutes fetched once.
import { formatInr, RULE_FIELDS, type RuleField, type SweepCell } from "@spreadwatch/core";
import { useState } from "react";
import { type SweepBody, useSweep } from "../../hooks/positions/useSweep.ts";
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

function HeatMap({
  title,
  cells,
  pick,
}: {
  title: string;
  cells: readonly SweepCell[];
  pick: (c: SweepCell) => number;
}) {
  const xs = [...new Set(cells.map((c) => c.x))].sort((a, b) => a - b);
  const ys = [...new Set(cells.map((c) => c.y))].sort((a, b) => a - b);
  const byKey = new Map(cells.map((c) => [`${c.x}|${c.y}`, c]));
  const worst = Math.max(1, ...cells.map((c) => Math.abs(pick(c))));
  return (
    <figure className="sweep__map">
      <figcaption>{title}</figcaption>
      <ScrollRegion label={title}>
        <table className="sweep__table">
          <thead>
            <tr>
              <th />
              {xs.map((x) => (
                <th key={x} scope="col">
                  {x}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ys.map((y) => (
              <tr key={y}>
                <th scope="row">{y}</th>
                {xs.map((x) => {
                  const cell = byKey.get(`${x}|${y}`);
                  if (!cell) return <td key={x} className="sweep__cell sweep__cell--none" />;
                  const net = pick(cell);
                  const strength = Math.round((Math.abs(net) / worst) * 60);
                  const tone = net >= 0 ? "var(--positive)" : "var(--negative)";
                  return (
                    <td
                      key={x}
                      className="sweep__cell"
                      data-net={net}
                      title={`${x} × ${y}: ${formatInr(net)}`}
                      style={{
                        background: `color-mix(in srgb, ${tone} ${strength}%, transparent)`,
                      }}
                    >
                      {Math.abs(net) >= 100_000
                        ? `${(net / 100_000).toFixed(1)}L`
                        : Math.round(net)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </figure>
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
          <div className="sweep__maps">
            <HeatMap
              title="In sample (first 70 %), net ₹"
              cells={cells}
              pick={(c) => c.inSample.netInr}
            />
            <HeatMap
              title="Out of sample (last 30 %), net ₹"
              cells={cells}
              pick={(c) => c.outOfSample.netInr}
            />
          </div>
        </>
      )}
    </div>
  );
}
