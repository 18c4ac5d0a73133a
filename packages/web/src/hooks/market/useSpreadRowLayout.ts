import { useState } from "react";
import { useMediaQuery, useTapForDetails } from "../ui/useMediaQuery.ts";

/** Phones: CME, MCX (and any other wide column) move into the row's details sheet. */
const COMPACT_TABLE = "(max-width: 480px)";
/** Narrow tablets keep every column, with room for one alert button: more fold into a count. */
const FEW_BELLS = "(max-width: 640px)";

/** How a spread row lays itself out at this width, and how it opens its details. */
export interface SpreadRowLayout<S extends string> {
  /** Phones and touch screens: a tap shows the row's details instead of opening the chart. */
  onDetails: ((symbol: S) => void) | undefined;
  /** Shows the row's details on any screen: a row with more alerts than bells opens its list. */
  onAlertList: (symbol: S) => void;
  /** Alert buttons the Alerts cell shows before its plus (AlertBells' `max`). */
  maxBells: number;
  /** Phones: the compact row (CME and MCX move into the details, one bell with a count). */
  compact: boolean;
}

/**
 * The layout the Spread table and My spreads share (docs/user-guide.md): compact rows on a phone,
 * fewer bells on a narrow tablet, and the one row whose details sheet is open. `maxBells` is the
 * Alerts cell's own maximum, used where the screen has room.
 */
export function useSpreadRowLayout<S extends string>(maxBells: number) {
  const tapForDetails = useTapForDetails();
  const compact = useMediaQuery(COMPACT_TABLE);
  const fewBells = useMediaQuery(FEW_BELLS);
  const [details, setDetails] = useState<S>();
  const row: SpreadRowLayout<S> = {
    onDetails: tapForDetails ? setDetails : undefined,
    onAlertList: setDetails,
    maxBells: fewBells ? 1 : maxBells,
    compact,
  };
  return { details, setDetails, closeDetails: () => setDetails(undefined), row };
}
