import {
  ANNUALISE_FROM_DAYS,
  formatIstTime,
  formatNumber,
  formatSignedText,
} from "@spreadwatch/core";
import type { LivePosition, PositionView } from "../../hooks/positions/usePositions.ts";
import { definitionDecimals } from "../../market/definitionRows.ts";
import { plainRupees, signClass, signedPercent, signedRupees } from "./format.ts";

/**
 * A spread value (entry, mark, exit) with the decimals its size needs, as My spreads shows them,
 * with the same minus sign (U+2212) as the rupee figures beside it.
 */
export function spreadText(value: number | null | undefined): string {
  return formatSignedText(value ?? undefined, definitionDecimals(value));
}

/** "BUY 2 × Gold": what a position is, in the words of its alert ("BUY 2 × GC: net …"). */
export function positionTitle(view: Pick<PositionView, "side" | "lots" | "name">): string {
  return `${view.side} ${view.lots} × ${view.name}`;
}

/** "LIVE": a position opened by real fills through Kite, not a paper record. */
export function LiveBadge({ live }: { live: boolean }) {
  if (!live) return null;
  return (
    <span className="live-badge" data-field="live" title="Opened by real fills through Kite">
      Live
    </span>
  );
}

/** The real average fill of each leg and the slippage against the targeted spread. */
export function LiveFills({ view }: { view: PositionView }) {
  if (!view.live) return null;
  const fills = Object.entries(view.legs)
    .map(([name, leg]) => `${leg.contract ?? name} ${formatNumber(leg.price, 2)}`)
    .join(" · ");
  const slip = view.slippageTicks;
  return (
    <small className="position-sub" data-field="fills">
      Kite fills: {fills}
      {slip !== null &&
        ` · slippage ${formatNumber(slip, Number.isInteger(slip) ? 0 : 2)} ${Math.abs(slip) === 1 ? "tick" : "ticks"}`}
    </small>
  );
}

/** A signed ₹ figure coloured by its sign. */
export function Rupees({ value, field }: { value: number | null | undefined; field: string }) {
  return (
    <span
      className={`position-pnl ${signClass(value) ?? "muted"}`}
      data-field={field}
      data-value={value ?? ""}
    >
      {signedRupees(value)}
    </span>
  );
}

/** The mark, greyed with the reason when a leg is stale, crossed or missing. */
export function MarkFigure({ position }: { position: LivePosition }) {
  const reason = position.problems.map((p) => p.text).join("; ") || "no live value right now";
  return (
    <span
      className={position.stale ? "position-mark position-mark--stale" : "position-mark"}
      data-field="mark"
      data-value={position.mark ?? undefined}
      data-stale={position.stale || undefined}
      title={position.stale ? `Last mark: ${reason}` : `At ${position.view.markSymbol}`}
    >
      {spreadText(position.mark)}
    </span>
  );
}

/** "₹1,84,320" with "Kite · 11:24:46 am IST" (or "configured") under it. */
export function MarginFigure({ view }: { view: PositionView }) {
  const margin = view.margin;
  if (!margin)
    return (
      <span className="muted" data-field="margin" data-source="">
        —
      </span>
    );
  const source = margin.source === "kite" ? "Kite" : "configured rates";
  const benefit =
    margin.initialInr !== undefined && margin.initialInr > margin.inr
      ? `; spread benefit ${plainRupees(margin.initialInr - margin.inr)} (initial ${plainRupees(margin.initialInr)})`
      : "";
  return (
    <span
      className="position-margin"
      data-field="margin"
      data-source={margin.source}
      title={`Margin from ${source} at ${formatIstTime(margin.at)}${benefit}`}
    >
      {plainRupees(margin.inr)}
      <small className="position-sub" data-field="margin-source">
        {margin.source === "kite" ? "Kite" : "configured"}
      </small>
      <small className="position-sub" data-field="margin-at">
        {formatIstTime(margin.at)}
      </small>
    </span>
  );
}

/** Return on margin, coloured by its sign like the ₹ figures. */
export function ReturnPercent({
  fraction,
  field,
}: {
  fraction: number | null | undefined;
  field: string;
}) {
  return (
    <span
      className={`position-pnl ${signClass(fraction) ?? ""}`}
      data-field={field}
      data-value={fraction ?? ""}
    >
      {signedPercent(fraction)}
    </span>
  );
}

/**
 * Return on margin with its annualised figure under it: "—" until the position is
 * ANNUALISE_FROM_DAYS old, as a minute's move times 365 says nothing.
 */
export function ReturnFigure({ position }: { position: LivePosition }) {
  const annualised = position.returnOnMarginAnnualised;
  return (
    <span data-field="return-on-margin" data-value={position.returnOnMargin ?? ""}>
      <ReturnPercent fraction={position.returnOnMargin} field="return" />
      {position.returnOnMargin !== null && (
        <small
          className="position-sub"
          data-field="return-annualised"
          data-value={annualised ?? ""}
          title={
            annualised === null
              ? `Annualised once held ${ANNUALISE_FROM_DAYS} days`
              : "Annualised by days held"
          }
        >
          {annualised === null ? "—" : `${signedPercent(annualised)} a year`}
        </small>
      )}
    </span>
  );
}

/** Net ₹ in total, per lot under it. */
export function NetFigure({ position }: { position: LivePosition }) {
  return (
    <span className="position-net">
      <Rupees value={position.netInr} field="net" />
      <small className="position-sub" data-field="net-per-lot">
        {signedRupees(position.netPerLotInr)} / lot
      </small>
      {position.campaignInr !== undefined && (
        <small
          className="position-sub"
          title="Since the first entry: realised ₹ of the lots rolled and closed, plus this net"
        >
          campaign <Rupees value={position.campaignInr} field="campaign" />
        </small>
      )}
    </span>
  );
}

/** ["target +₹12,000", "stop −₹5,000"], or ["none"] with neither set. */
export function targetStopLines(view: Pick<PositionView, "targetInr" | "stopInr">): string[] {
  const lines = [
    ...(view.targetInr !== null ? [`target ${signedRupees(view.targetInr)}`] : []),
    ...(view.stopInr !== null ? [`stop ${signedRupees(view.stopInr)}`] : []),
  ];
  return lines.length > 0 ? lines : ["none"];
}

/** "target +₹12,000 · stop −₹5,000", or "none". */
export function targetStopText(view: Pick<PositionView, "targetInr" | "stopInr">): string {
  return targetStopLines(view).join(" · ");
}
