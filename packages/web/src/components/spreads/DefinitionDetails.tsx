import { formatNumber, formatSigned } from "@spreadwatch/core";
import type { AlertView } from "../../alerts/texts.ts";
import type { SpreadDefinitionView } from "../../hooks/market/useSpreadDefinitions.ts";
import { useSpreadStats } from "../../hooks/market/useSpreadStats.ts";
import { type DefinitionEntry, definitionDecimals } from "../../market/definitionRows.ts";
import { formatNetInr } from "../market/NetPerLotCell.tsx";
import { DetailsActions, Fact, ZFacts } from "../market/RowDetails.tsx";
import { type Column, TableHead } from "../ui/TableHead.tsx";

const LEG_COLUMNS: readonly Column[] = [
  { label: "Leg" },
  { label: "Instrument" },
  { label: "Price", num: true },
  { label: "Side" },
  { label: "Lots", num: true },
];

interface DefinitionDetailsProps {
  spread: SpreadDefinitionView;
  side: "BUY" | "SELL";
  entry: DefinitionEntry | undefined;
  alerts?: AlertView[];
  onEditAlert: (alert: AlertView) => void;
  onAddAlert: () => void;
  onOpenChart: () => void;
  /** Absent when the user may not change the definition (another's shared one). */
  onEdit?: () => void;
}

/** One side of a definition in full: value, mid, each leg's price and side, statistics, alerts. */
export function DefinitionDetails(props: DefinitionDetailsProps) {
  const { spread, side, entry } = props;
  const symbol = `${spread.symbol}_${side}`;
  const stats = useSpreadStats(symbol);
  const decimals = definitionDecimals(entry?.mid ?? entry?.spread);
  return (
    <div className="row-details" data-details={symbol}>
      <dl className="row-details__facts">
        <Fact
          label={side === "BUY" ? "Buy" : "Sell"}
          value={formatSigned(entry?.spread, decimals)}
        />
        <Fact label="Mid" value={formatSigned(entry?.mid ?? undefined, decimals)} />
        {entry?.perLot && <Fact label="Net / lot (₹)" value={formatNetInr(entry.perLot.netInr)} />}
      </dl>
      <section className="row-details__section" aria-label="Legs">
        <h3 className="row-details__heading">
          Legs · <code>{spread.formula}</code>
        </h3>
        <table className="data-table definition-legs" data-field="legs">
          <TableHead columns={LEG_COLUMNS} />
          <tbody>
            {spread.legs.map((leg) => {
              const value = entry?.legs[leg.name];
              return (
                <tr key={leg.name} data-leg={leg.name}>
                  <th scope="row">{leg.name}</th>
                  <td>{leg.instrument}</td>
                  <td className="num" data-col="price">
                    {formatNumber(value?.price, definitionDecimals(value?.price))}
                  </td>
                  <td data-col="side">{value?.side ?? "—"}</td>
                  <td className="num">{leg.lots ?? "—"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      {stats && <ZFacts stats={stats} />}
      <DetailsActions {...props} symbol={symbol} />
    </div>
  );
}
