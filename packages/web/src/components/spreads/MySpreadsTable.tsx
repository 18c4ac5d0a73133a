import type { Prices } from "@spreadwatch/core";
import type { SpreadDefinitionView } from "../../hooks/market/useSpreadDefinitions.ts";
import { useSpreadRowLayout } from "../../hooks/market/useSpreadRowLayout.ts";
import { definitionEntry } from "../../market/definitionRows.ts";
import type { FreshnessContext } from "../../market/freshness.ts";
import { MAX_BELLS } from "../alerts/AlertBells.tsx";
import type { RowAlerts } from "../alerts/rowAlerts.ts";
import { LazyDialog } from "../app/LazyBoundary.tsx";
import { DefinitionDetailsSheet } from "../market/lazySheets.ts";
import { Panel } from "../ui/Panel.tsx";
import { MySpreadRow } from "./MySpreadRow.tsx";

interface MySpreadsTableProps {
  spreads: readonly SpreadDefinitionView[];
  prices: Prices;
  calculations: object;
  alerts?: RowAlerts;
  freshness: FreshnessContext;
  onNew: () => void;
  onEdit: (spread: SpreadDefinitionView) => void;
}

const SIDES = ["BUY", "SELL"] as const;

/**
 * "My spreads" (docs/user-guide.md "Spreads of your own"): every definition the user sees but the
 * built-ins, a group per definition with its Buy and Sell rows, like the Spread table.
 */
export function MySpreadsTable(props: MySpreadsTableProps) {
  const { spreads, prices, alerts, freshness } = props;
  const calculations = props.calculations as Record<string, unknown>;
  const { details, setDetails, closeDetails, row } = useSpreadRowLayout<string>(MAX_BELLS);
  // Net / lot only when some spread here has lots: the Legs column keeps its room otherwise.
  const withLots = spreads.some((spread) => spread.legs.some((leg) => leg.lots != null));
  const newButton = (
    <button type="button" className="button button--small" onClick={props.onNew}>
      New spread
    </button>
  );
  return (
    <Panel
      title="My spreads"
      className="panel--spread panel--my-spreads"
      note={<div className="my-spreads__bar">{newButton}</div>}
    >
      {spreads.length === 0 ? (
        <p className="muted my-spreads__empty">
          No spreads of your own yet: New spread builds one from a template (a calendar, a parity, a
          ratio…) or from legs and a formula.
        </p>
      ) : (
        <table className="data-table" aria-label="My spreads">
          <thead>
            <tr>
              <th scope="col">Side</th>
              <th scope="col" className="num">
                Spread
              </th>
              {withLots && (
                <th
                  scope="col"
                  className="num col--wide"
                  title="Net of round-trip costs, on the legs' lots"
                >
                  Net / lot (₹)
                </th>
              )}
              <th scope="col" className="num col--wide" data-col="mid">
                Mid
              </th>
              <th scope="col" className="num col--wide" title="z-score against 20 days of closes">
                z
              </th>
              <th scope="col" className="num col--wide" title="20-day percentile">
                Pctl
              </th>
              <th scope="col" className="col--wide my-spreads__legs-col">
                Legs
              </th>
              <th scope="col">Alerts</th>
            </tr>
          </thead>
          {spreads.map((spread) => (
            <tbody key={spread.id} data-spread={spread.symbol}>
              <tr className="group-row">
                <th scope="rowgroup" colSpan={withLots ? 8 : 7}>
                  <span className="my-spreads__name">{spread.name}</span>{" "}
                  <span className="my-spreads__symbol">{spread.symbol}</span>
                  {spread.shared && <span className="my-spreads__badge">Shared</span>}
                  <code className="my-spreads__formula col--wide">{spread.formula}</code>
                  {spread.editable && (
                    <button
                      type="button"
                      className="link-button my-spreads__edit"
                      aria-label={`Edit ${spread.name}`}
                      onClick={() => props.onEdit(spread)}
                    >
                      Edit
                    </button>
                  )}
                </th>
              </tr>
              {SIDES.map((side) => (
                <MySpreadRow
                  key={side}
                  spread={spread}
                  side={side}
                  entry={definitionEntry(calculations, `${spread.symbol}_${side}`)}
                  prices={prices}
                  alerts={alerts}
                  freshness={freshness}
                  {...row}
                  onShowDetails={setDetails}
                  withLots={withLots}
                />
              ))}
            </tbody>
          ))}
        </table>
      )}
      {details && (
        <LazyDialog what="sheet">
          <DefinitionDetailsSheet
            symbol={details}
            spreads={spreads}
            calculations={calculations}
            alerts={alerts}
            onEdit={props.onEdit}
            onClose={closeDetails}
          />
        </LazyDialog>
      )}
    </Panel>
  );
}
