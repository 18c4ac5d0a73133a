// The Advanced Spread Chart's Backtest panel (docs/backtest.md): a rule on the shown spread's
// executable history, its summary, its trades (marked on the chart) and its equity curve.
import {
  type BacktestMetric,
  type BacktestTrade,
  backtestTradesCsv,
  formatInr,
  formatIstTimestamp,
} from "@spreadwatch/core";
import { useEffect, useState } from "react";
import { useBacktest } from "../../hooks/positions/useBacktest.ts";
import type { TradeMark } from "../chart/plugins/trades.ts";
import { ScrollRegion } from "../ui/ScrollRegion.tsx";
import { FormActions } from "../ui/SubmitButton.tsx";
import { Term } from "../ui/Term.tsx";
import { EquityCurve } from "./EquityCurve.tsx";
import { backtestRequest, EMPTY_RULE, PERIOD_DAYS, type RuleForm } from "./rule-form.ts";
import { SweepSection } from "./SweepSection.tsx";

interface BacktestPanelProps {
  /** The spread (GC, SP7) whose BUY and SELL sides are tested. */
  spread: string;
  /** Fields to start from (an alert's "How would this alert have done?"); runs at once. */
  initial?: Partial<RuleForm> | undefined;
  onTrades: (marks: readonly TradeMark[]) => void;
}

const METRICS: { value: BacktestMetric; label: string }[] = [
  { value: "spread", label: "Spread value" },
  { value: "z", label: "z-score" },
  { value: "percentile", label: "Percentile" },
];

const FIELDS: { key: keyof RuleForm; label: string }[] = [
  { key: "sellAbove", label: "Sell above" },
  { key: "exitShortAt", label: "Buy back at" },
  { key: "buyBelow", label: "Buy below" },
  { key: "exitLongAt", label: "Sell out at" },
  { key: "targetInr", label: "Target ₹" },
  { key: "stopInr", label: "Stop ₹" },
  { key: "maxHoldMinutes", label: "Max hold (min)" },
  { key: "cooldownMinutes", label: "Cooldown (min)" },
  { key: "lots", label: "Lots" },
  { key: "slippageTicks", label: "Slippage (ticks/leg)" },
];

const REASONS: Record<string, string> = {
  rule: "rule",
  target: "target",
  stop: "stop",
  time: "max hold",
  roll: "roll",
  end: "end of data",
};

export function marksOf(trades: readonly BacktestTrade[]): TradeMark[] {
  return trades.flatMap((t): TradeMark[] => [
    {
      at: t.entryAt,
      value: t.entry,
      kind: t.side === "long" ? "entry-long" : "entry-short",
      label: `${t.side === "long" ? "Buy" : "Sell"} ${t.entry.toFixed(2)}`,
    },
    {
      at: t.exitAt,
      value: t.exit,
      kind: "exit",
      label: `Exit ${t.exit.toFixed(2)} (${REASONS[t.reason]})`,
    },
  ]);
}

function downloadTrades(spread: string, trades: readonly BacktestTrade[]) {
  const blob = new Blob([backtestTradesCsv(trades)], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `${spread}-backtest-trades.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

const percent = (v: number) => `${(v * 100).toFixed(1)} %`;
const hours = (ms: number) =>
  ms < 3_600_000 ? `${Math.round(ms / 60_000)} min` : `${(ms / 3_600_000).toFixed(1)} h`;

export function BacktestPanel({ spread, initial, onTrades }: BacktestPanelProps) {
  const [form, setForm] = useState<RuleForm>({
    ...EMPTY_RULE,
    sellAbove: "600",
    exitShortAt: "300",
    ...initial,
  });
  const { run } = useBacktest();
  const set = (patch: Partial<RuleForm>) => setForm((f) => ({ ...f, ...patch }));
  const submit = () => run.mutate(backtestRequest(form, spread, Date.now()) as never);
  // An alert's question is asked on arrival.
  useEffect(() => {
    if (initial) submit();
  }, [spread, initial]);
  const result = run.data;
  useEffect(() => {
    onTrades(result ? marksOf(result.trades) : []);
  }, [result, onTrades]);
  const s = result?.summary;
  return (
    <section
      className="panel backtest"
      aria-labelledby="backtest-title"
      data-testid="backtest-panel"
    >
      <h2 id="backtest-title" className="panel__title">
        Backtest {spread}
      </h2>
      <form
        className="backtest__form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className="field">
          <label className="field__label" htmlFor="backtest-metric">
            On
          </label>
          <select
            id="backtest-metric"
            value={form.metric}
            onChange={(e) => set({ metric: e.target.value as BacktestMetric })}
          >
            {METRICS.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="backtest-period">
            Period
          </label>
          <select
            id="backtest-period"
            value={form.periodDays}
            onChange={(e) => set({ periodDays: Number(e.target.value) })}
          >
            {PERIOD_DAYS.map((d) => (
              <option key={d} value={d}>
                Last {d} days
              </option>
            ))}
          </select>
        </div>
        {FIELDS.map(({ key, label }) => (
          <div className="field" key={key}>
            <label className="field__label" htmlFor={`backtest-${key}`}>
              {label}
            </label>
            <input
              id={`backtest-${key}`}
              name={key}
              inputMode="decimal"
              value={String(form[key])}
              onChange={(e) => set({ [key]: e.target.value })}
            />
          </div>
        ))}
        <FormActions className="backtest__actions" busy={run.isPending} busyLabel="Running…">
          Run backtest
        </FormActions>
      </form>
      <p className="muted backtest__note">
        Sell when the SELL side reaches "Sell above", buy back when the BUY side falls to "Buy back
        at"; buy when the BUY side falls to "Buy below", sell out when the SELL side reaches "Sell
        out at". Decided and filled on each minute's closes; costs and margin at today's prices.
      </p>
      {run.error && (
        <p className="backtest__error" role="alert">
          {run.error.message}
        </p>
      )}
      {s && result && (
        <div className="backtest__result" data-testid="backtest-result">
          <dl className="backtest__summary">
            <Term label="Trades" field="trades">
              {s.trades}
            </Term>
            <Term label="Win rate">{percent(s.winRate)}</Term>
            <Term
              label="Net"
              field="net"
              className={s.netInr < 0 ? "negative" : s.netInr > 0 ? "positive" : ""}
            >
              {formatInr(s.netInr)}
            </Term>
            <Term label="Costs">{formatInr(s.costsInr)}</Term>
            <Term label="Max drawdown">{formatInr(s.maxDrawdownInr)}</Term>
            <Term label="Avg hold">{hours(s.averageHoldingMs)}</Term>
            <Term label="Exposure">{percent(s.exposure)}</Term>
            <Term label="Sharpe (daily)">
              {s.sharpeDaily === null ? "—" : s.sharpeDaily.toFixed(2)}
            </Term>
            <Term label="Return on margin">
              {s.returnOnMargin === null ? "—" : percent(s.returnOnMargin)}
            </Term>
            <Term label="Estimated fills">{s.estimatedFills}</Term>
          </dl>
          <EquityCurve points={result.equity} />
          {result.trades.length > 0 && (
            <div className="backtest__trades">
              <div className="backtest__trades-head">
                <h3>Trades</h3>
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => downloadTrades(spread, result.trades)}
                >
                  Download CSV
                </button>
              </div>
              <ScrollRegion label="Backtest trades">
                <table className="table backtest__table">
                  <thead>
                    <tr>
                      <th>Side</th>
                      <th>Entry (IST)</th>
                      <th className="num">Entry</th>
                      <th>Exit (IST)</th>
                      <th className="num">Exit</th>
                      <th>Why</th>
                      <th className="num">Net</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.trades.slice(0, 200).map((t) => (
                      <tr key={t.entryAt} data-trade-at={t.entryAt}>
                        <td>{t.side === "long" ? "Bought" : "Sold"}</td>
                        <td>{formatIstTimestamp(t.entryAt)}</td>
                        <td className="num">{t.entry.toFixed(2)}</td>
                        <td>{formatIstTimestamp(t.exitAt)}</td>
                        <td className="num">{t.exit.toFixed(2)}</td>
                        <td>{REASONS[t.reason]}</td>
                        <td className={`num ${t.netInr < 0 ? "negative" : "positive"}`}>
                          {formatInr(t.netInr)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
              {result.trades.length > 200 && (
                <p className="muted">
                  The first 200 of {result.trades.length} trades; the CSV has them all.
                </p>
              )}
            </div>
          )}
        </div>
      )}
      <SweepSection spread={spread} form={form} />
    </section>
  );
}
