import { formatIstTime, formatNumber } from "@spreadwatch/core";
import type { PositionView } from "../../hooks/positions/usePositions.ts";
import { TooltipButton } from "../ui/TooltipButton.tsx";
import { paiseText, plainRupees } from "./format.ts";

/** The cost lines core's breakdown carries, in the order the per-lot tooltip lists them. */
const LINES: readonly (readonly [string, string])[] = [
  ["brokerage", "Brokerage"],
  ["exchange", "Exchange charges"],
  ["sebi", "SEBI fee"],
  ["ctt", "CTT (sell)"],
  ["stt", "STT (sell)"],
  ["stampDuty", "Stamp duty (buy)"],
  ["gst", "GST"],
  ["cme", "CME fees"],
];

/**
 * Round-trip costs with their breakdown on hover, focus or tap, and the broker's own figure
 * (Kite's contract note for the MCX legs) beside ours; a difference over ₹1 a lot is flagged,
 * since it means the configured rates are out of date.
 */
export function CostsFigure({ view, costsInr }: { view: PositionView; costsInr: number | null }) {
  const flag = view.costMismatch;
  return (
    <TooltipButton
      details={<CostsDetails view={view} costsInr={costsInr} />}
      label={`${plainRupees(costsInr)} round-trip costs${flag ? ", differs from the broker's figure" : ""}, show breakdown`}
      data={{ "data-cost-mismatch": flag ? "true" : "false", "data-value": costsInr ?? "" }}
    >
      {plainRupees(costsInr)}
      {flag && (
        <span className="position-flag" aria-hidden="true" title="Differs from the broker's figure">
          {" "}
          ⚠
        </span>
      )}
    </TooltipButton>
  );
}

function CostsDetails({ view, costsInr }: { view: PositionView; costsInr: number | null }) {
  const breakdown = new Map<string, number>(Object.entries(view.breakdown ?? {}));
  // STT only where a leg pays it (an NSE future), as the per-lot tooltip does.
  const lines = LINES.filter(
    ([key]) => breakdown.has(key) && (key !== "stt" || breakdown.get(key)),
  );
  const cmeUsd = breakdown.get("cmeUsd");
  return (
    <div className="per-lot-breakdown" data-testid="position-costs">
      <div className="per-lot-breakdown__title">Round trip, one lot, ₹</div>
      <dl>
        {lines.map(([key, label]) => (
          <div key={key} className="position-costs__line">
            <dt>
              {label}
              {key === "cme" && typeof cmeUsd === "number" ? ` ($${formatNumber(cmeUsd, 2)})` : ""}
            </dt>
            <dd>{paiseText(breakdown.get(key) ?? 0)}</dd>
          </div>
        ))}
        <div className="position-costs__line per-lot-breakdown__net">
          <dt>
            Spreadwatch, {view.lots} {view.lots === 1 ? "lot" : "lots"}
          </dt>
          <dd>{costsInr === null ? "—" : paiseText(costsInr)}</dd>
        </div>
        {view.brokerCosts && (
          <div className="position-costs__line" data-field="broker-costs">
            <dt>Kite contract note, {formatIstTime(view.brokerCosts.at)}</dt>
            <dd>{paiseText(view.brokerCosts.inr)}</dd>
          </div>
        )}
      </dl>
      {view.costMismatch && (
        <p className="position-costs__mismatch" data-field="cost-mismatch">
          ⚠ Differs from Kite's figure by more than ₹1 a lot: the cost rates may be out of date
          (docs/user-guide.md "Net / lot (₹) and z").
        </p>
      )}
      {!view.brokerCosts && (
        <p className="per-lot-breakdown__hedge">
          Kite's figure shows here with a Kite connection (MCX legs).
        </p>
      )}
    </div>
  );
}
