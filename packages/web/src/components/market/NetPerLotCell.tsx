import {
  type CalculationEntry,
  DEFAULT_LOTS,
  type DefinitionPerLot,
  formatNumber,
  type PerLot,
  parseSpreadSymbol,
  perLot,
  type SpreadSymbol,
} from "@spreadwatch/core";
import type { ReactNode } from "react";
import { useCostRates } from "../../hooks/market/useCostRates.ts";
import { useLotChoice } from "../../hooks/market/useLotChoice.ts";
import { TooltipButton } from "../ui/TooltipButton.tsx";

const rupees = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });
const paise = new Intl.NumberFormat("en-IN", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** "+5,048": whole rupees with Indian grouping, signed like the spread beside it. */
export function formatNetInr(value: number): string {
  const text = rupees.format(value);
  return value > 0 && text !== "0" ? `+${text}` : text === "-0" ? "0" : text;
}

/**
 * The user's lot of this spread: the server's perLot for the standard lot, else core's perLot
 * priced here at the server's rates (the choice lives in this browser, see useLotChoice).
 */
function usePerLot(symbol: SpreadSymbol, entry: CalculationEntry | undefined): PerLot | undefined {
  const [choice] = useLotChoice();
  const rates = useCostRates();
  if (!entry) return undefined;
  const { id } = parseSpreadSymbol(symbol);
  const chosen = choice[id];
  if (chosen === undefined || chosen === DEFAULT_LOTS[id]) return entry.perLot;
  return rates ? perLot(symbol, entry, entry.usdinr, choice, rates) : undefined;
}

/**
 * The "Net / lot (₹)" cell (docs/user-guide.md, "Net / lot (₹) and z"): net after costs, the
 * breakdown on hover, focus or tap.
 */
export function NetPerLotCell({
  symbol,
  entry,
}: {
  symbol: SpreadSymbol;
  entry: CalculationEntry | undefined;
}) {
  const lot = usePerLot(symbol, entry);
  return (
    <NetCell
      lot={lot}
      label={lot && `per ${lot.contract} lot`}
      data={lot && { "data-contract": lot.contract }}
      details={lot && <Breakdown lot={lot} />}
    />
  );
}

/**
 * The same cell for a spread of one's own (docs/user-guide.md "Spreads of your own"): the server's
 * perLot on the legs' lots; "–" when no leg has lots.
 */
export function DefinitionNetPerLotCell({ lot }: { lot: DefinitionPerLot | undefined }) {
  return (
    <NetCell
      lot={lot}
      label="per lot of the spread"
      details={
        lot && (
          <div className="per-lot-breakdown" data-testid="per-lot-breakdown">
            <div className="per-lot-breakdown__title">
              The legs' lots (₹{formatNumber(lot.units, 0)} a point), ₹
            </div>
            <CostLines lot={lot} />
          </div>
        )
      }
    />
  );
}

type NetFigures = Pick<PerLot, "grossInr" | "netInr" | "breakdown">;

function NetCell({
  lot,
  label,
  data,
  details,
}: {
  lot: NetFigures | undefined;
  label: string | undefined;
  data?: Record<`data-${string}`, string | number> | undefined;
  details: ReactNode;
}) {
  if (!lot)
    return (
      <td className="num net-per-lot muted col--wide" data-col="net-per-lot">
        –
      </td>
    );
  const sign = lot.netInr > 0 ? "positive" : lot.netInr < 0 ? "negative" : undefined;
  return (
    <td className={`num net-per-lot col--wide ${sign ?? ""}`} data-col="net-per-lot">
      <TooltipButton
        details={details}
        // Begins with the text it shows, so speech input ("click +5,048") finds it.
        label={`${formatNetInr(lot.netInr)} rupees net ${label}, show breakdown`}
        data={{ "data-net-inr": lot.netInr, ...data }}
      >
        {formatNetInr(lot.netInr)}
      </TooltipButton>
    </td>
  );
}

function Breakdown({ lot }: { lot: PerLot }) {
  const { hedge } = lot;
  return (
    <div className="per-lot-breakdown" data-testid="per-lot-breakdown">
      <div className="per-lot-breakdown__title">
        1 {lot.contract} lot ({formatNumber(lot.units, 0)} quote units), ₹
      </div>
      <CostLines lot={lot} />
      <div className="per-lot-breakdown__hedge">
        Hedge: {hedge.contracts} × {hedge.contract}
        {hedge.unhedgedUnits !== 0 &&
          `, ${formatNumber(Math.abs(hedge.unhedgedUnits), 4)} units ${hedge.unhedgedUnits > 0 ? "unhedged" : "over-hedged"}`}
      </div>
    </div>
  );
}

/** Gross, every cost line and the net, to paise. */
function CostLines({ lot }: { lot: NetFigures }) {
  const b = lot.breakdown;
  const line = (label: string, value: number, negative = true) => (
    <>
      <dt>{label}</dt>
      <dd>{negative && value !== 0 ? `-${paise.format(value)}` : paise.format(value)}</dd>
    </>
  );
  return (
    <dl>
      {line("Gross", lot.grossInr, false)}
      {line("Brokerage", b.brokerage)}
      {line("Exchange charges", b.exchange)}
      {line("SEBI fee", b.sebi)}
      {line("CTT (sell)", b.ctt)}
      {b.stt !== undefined && line("STT (sell)", b.stt)}
      {line("Stamp duty (buy)", b.stampDuty)}
      {line("GST", b.gst)}
      {line(`CME fees ($${formatNumber(b.cmeUsd, 2)})`, b.cme)}
      <dt className="per-lot-breakdown__net">Net</dt>
      <dd className="per-lot-breakdown__net">{paise.format(lot.netInr)}</dd>
    </dl>
  );
}
