import {
  type CalculationEntry,
  cmePriceDecimals,
  DEFAULT_STATS_DAYS,
  formatNumber,
  formatSigned,
  mcxPriceDecimals,
  type Prices,
  type SpreadSymbol,
  spreadDecimals,
} from "@spreadwatch/core";
import { type AlertView, alertTooltipLines } from "../../alerts/texts.ts";
import { useSpreadStats } from "../../hooks/market/useSpreadStats.ts";
import { parityBreakdown, rowPrices } from "../../market/spreadInputs.ts";
import { coverageText } from "../../market/statisticsCoverage.ts";
import { AlertBell } from "../alerts/AlertBells.tsx";
import { ScreenLink } from "../app/ScreenLink.tsx";
import { OpenPositionButton } from "../positions/OpenPosition.tsx";
import type { ZStats } from "./ZScoreCell.tsx";

/** The per-lot figures another change adds to calculation entries; read only when present. */
interface PerLotView {
  contract?: string;
  units?: number;
  grossInr?: number;
  costsInr?: number;
  netInr?: number;
  hedge?: { contract?: string; contracts?: number; unhedgedUnits?: number };
}

const rupees = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  maximumFractionDigits: 0,
});

function perLotOf(entry: CalculationEntry | undefined): PerLotView | undefined {
  return (entry as { perLot?: PerLotView } | undefined)?.perLot ?? undefined;
}

interface RowDetailsProps {
  symbol: SpreadSymbol;
  entry: CalculationEntry | undefined;
  prices: Prices;
  /** Why the spread is missing, when it is. */
  missing?: string;
  /** The row's alerts; absent without alerts_enabled. */
  alerts?: AlertView[];
  onEditAlert: (alert: AlertView) => void;
  onAddAlert: () => void;
  onOpenChart: () => void;
}

/** A Spread row in full, for the bottom sheet: what the phone's compact row leaves out. */
export function RowDetails(props: RowDetailsProps) {
  const { symbol, entry, prices, missing } = props;
  const shown = entry ?? rowPrices(symbol, prices);
  const perLot = perLotOf(entry);
  const stats = useSpreadStats(symbol);
  return (
    <div className="row-details" data-details={symbol}>
      <dl className="row-details__facts">
        <Fact
          label="Spread"
          value={formatSigned(entry?.spread, spreadDecimals(symbol))}
          className={signClass(entry?.spread)}
        />
        <Fact label="CME" value={formatNumber(shown.cme, cmePriceDecimals(symbol))} />
        <Fact label="MCX" value={formatNumber(shown.mcx, mcxPriceDecimals(symbol))} />
      </dl>
      <p className="row-details__parity" data-field="parity">
        {entry ? parityBreakdown(entry) : missing}
      </p>
      {stats && <ZFacts stats={stats} />}
      {perLot && <PerLotFacts perLot={perLot} />}
      <DetailsActions {...props} />
    </div>
  );
}

/**
 * The foot of a row's details sheet, built-in or a definition's: its alerts, then Open chart,
 * Add alert, Edit spread (where the user may) and Open position.
 */
export function DetailsActions(props: {
  symbol: string;
  alerts?: AlertView[] | undefined;
  onEditAlert: (alert: AlertView) => void;
  onAddAlert: () => void;
  onOpenChart: () => void;
  onEdit?: (() => void) | undefined;
}) {
  return (
    <>
      {props.alerts && (
        <RowAlertList
          alerts={props.alerts}
          onEditAlert={props.onEditAlert}
          onAddAlert={props.onAddAlert}
        />
      )}
      <div className="row-details__actions">
        <button type="button" className="button button--primary" onClick={props.onOpenChart}>
          Open chart
        </button>
        {props.alerts && (
          <button type="button" className="button" onClick={props.onAddAlert}>
            Add alert
          </button>
        )}
        {props.onEdit && (
          <button type="button" className="button" onClick={props.onEdit}>
            Edit spread
          </button>
        )}
        <OpenPositionButton symbol={props.symbol} />
        <ScreenLink href={`/ticket/${props.symbol}`} className="button">
          Send to Kite
        </ScreenLink>
      </div>
    </>
  );
}

/** Green above 0, red below, as in the table (docs/spec.md §2). */
function signClass(value: number | undefined): string | undefined {
  if (value === undefined || value === 0) return undefined;
  return value > 0 ? "spread positive" : "spread negative";
}

export function Fact({
  label,
  value,
  className,
}: {
  label: string;
  value: string;
  className?: string;
}) {
  return (
    <div>
      {/* Labels are set in capitals, but a capital σ is Σ, a sum: symbols keep their case. */}
      <dt className={/^\p{Script=Greek}+$/u.test(label) ? "row-details__symbol" : undefined}>
        {label}
      </dt>
      <dd className={className}>{value}</dd>
    </div>
  );
}

/** The desktop z column and its tooltip, written out: a phone has neither the column nor hover. */
export function ZFacts({ stats }: { stats: ZStats }) {
  return (
    <section className="row-details__section" aria-label="20-day statistics">
      <h3 className="row-details__heading" data-field="statistics-coverage">
        {stats.coverage ? coverageText(DEFAULT_STATS_DAYS, stats.coverage) : "20 days"} ·{" "}
        {formatNumber(stats.n, 0)} one-minute closes
      </h3>
      {stats.z === null || stats.z === undefined ? (
        <p className="muted row-details__empty" data-field="z">
          Not enough history for a z-score.
        </p>
      ) : (
        <dl className="row-details__facts" data-field="z">
          <Fact label="z" value={formatSigned(stats.z, 2)} />
          <Fact label="Percentile" value={formatNumber(stats.percentile, 1)} />
          <Fact label="Mean" value={formatNumber(stats.mean, 2)} />
          <Fact label="σ" value={formatNumber(stats.std, 2)} />
        </dl>
      )}
    </section>
  );
}

function PerLotFacts({ perLot }: { perLot: PerLotView }) {
  const inr = (value: number | undefined) => (value === undefined ? "—" : rupees.format(value));
  const hedge = perLot.hedge;
  return (
    <section className="row-details__section" aria-label="Per lot">
      <h3 className="row-details__heading">
        Per lot{perLot.contract ? ` · ${perLot.contract}` : ""}
        {perLot.units !== undefined ? ` (${perLot.units} units)` : ""}
      </h3>
      <dl className="row-details__facts" data-field="per-lot">
        <Fact label="Gross" value={inr(perLot.grossInr)} />
        <Fact label="Costs" value={inr(perLot.costsInr)} />
        <Fact label="Net" value={inr(perLot.netInr)} />
        {hedge?.contracts !== undefined && (
          <Fact
            label="Hedge"
            value={`${hedge.contracts} × ${hedge.contract ?? "CME"}${
              hedge.unhedgedUnits ? ` (${hedge.unhedgedUnits} units open)` : ""
            }`}
          />
        )}
      </dl>
    </section>
  );
}

export function RowAlertList({
  alerts,
  onEditAlert,
  onAddAlert,
}: {
  alerts: AlertView[];
  onEditAlert: (alert: AlertView) => void;
  onAddAlert: () => void;
}) {
  return (
    <section className="row-details__section" aria-label="Alerts">
      <h3 className="row-details__heading">Alerts</h3>
      {alerts.length === 0 ? (
        <p className="muted row-details__empty">
          No alerts on this spread.{" "}
          <button type="button" className="link-button" onClick={onAddAlert}>
            Add one
          </button>
        </p>
      ) : (
        <ul className="row-details__alerts">
          {alerts.map((alert) => (
            <li key={alert.id} className="row-details__alert">
              <AlertBell alert={alert} onEdit={() => onEditAlert(alert)} />
              {/* The bell's tooltip, written out: a touch screen has no hover. */}
              <button
                type="button"
                className="row-details__alert-text"
                onClick={() => onEditAlert(alert)}
              >
                {alertTooltipLines(alert).join(" · ")}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
