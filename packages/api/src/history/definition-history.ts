// The past of a user's own spread (docs/formulas.md, "History from the legs"): its recorded
// candles from its first live value on, and before that candles computed from its legs' stored
// mid candles with core's MID evaluation of its formula.
import {
  type Candle,
  candlesFromLegs,
  parseExecutableSymbol,
  type Timeframe,
  userSpreadId,
} from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";
import type { RegisteredSpread, SpreadRegistry, SpreadViewer } from "../spreads/registry.ts";

export interface DefinitionSide {
  spread: RegisteredSpread;
  side: "BUY" | "SELL";
}

/**
 * The user definition behind an executable symbol (SP7_BUY) if the viewer may see it; undefined
 * for a built-in's symbol, an unknown one and another user's private spread alike, so a stranger
 * learns nothing from the answer (a 404 for all three where a route takes only these).
 */
export function visibleDefinition(
  spreads: Pick<SpreadRegistry, "executable" | "canSee">,
  viewer: SpreadViewer,
  symbol: string,
): DefinitionSide | undefined {
  const found = spreads.executable(symbol);
  if (!found || found.spread.builtin || !spreads.canSee(viewer, symbol)) return undefined;
  return found;
}

/**
 * Where a side's own candles of a timeframe begin: its oldest stored one, else the one forming
 * now, else the definition's last change (a new recipe's candles were deleted; its legs stand in
 * up to it). Candles before this come from the legs: the chart's `legHistoryUntil`.
 */
export async function ownHistoryStart(
  store: Store,
  symbol: string,
  timeframe: Timeframe,
  spread: RegisteredSpread,
  forming: Readonly<Candle> | undefined,
): Promise<number> {
  const first = await store.candles.first(symbol, timeframe);
  return first?.timestamp ?? forming?.timestamp ?? Math.max(spread.createdAt, spread.updatedAt);
}

/**
 * Stored candles with the one forming now last, at most `limit`. A forming candle that began
 * after a restart carries only what came since: it is merged with a stored one of its bucket
 * (open kept, high and low widened, close its own), as the store merges them when it is written.
 */
export function withForming(
  candles: readonly Candle[],
  forming: Readonly<Candle> | undefined,
  range: { from?: number | undefined; to?: number | undefined; limit: number },
): Candle[] {
  const { from, to } = range;
  if (
    !forming ||
    (from !== undefined && forming.timestamp < from) ||
    (to !== undefined && forming.timestamp >= to)
  )
    return [...candles];
  const last = candles.at(-1);
  if (last && last.timestamp > forming.timestamp) return [...candles];
  if (last?.timestamp !== forming.timestamp)
    return [...candles, { ...forming }].slice(-range.limit);
  const merged: Candle = {
    timestamp: forming.timestamp,
    open: last.open,
    high: Math.max(last.high, forming.high),
    low: Math.min(last.low, forming.low),
    close: forming.close,
  };
  return [...candles.slice(0, -1), merged];
}

/**
 * The definition's mid candles from its legs' candles of `timeframe` in [from, to) — stored,
 * and the one each leg is forming now (`forming`, the recorder's) — the most recent `limit`
 * (every leg's most recent `limit` cover them). Empty for a definition that no longer checks.
 */
export async function candlesFromLegHistory(
  store: Store,
  spread: RegisteredSpread,
  timeframe: Timeframe,
  range: { from?: number | undefined; to: number; limit: number },
  forming: (instrument: string, timeframe: Timeframe) => Readonly<Candle> | undefined = () =>
    undefined,
): Promise<Candle[]> {
  const checked = spread.checked;
  if (!checked || range.limit <= 0) return [];
  const legs = await Promise.all(
    checked.legs.map(async (leg) => {
      const stored = await store.instrumentCandles.recent({
        symbol: leg.instrument,
        timeframe,
        to: range.to,
        limit: range.limit,
        ...(range.from !== undefined && { from: range.from }),
      });
      return withForming(stored, forming(leg.instrument, timeframe), range);
    }),
  );
  return candlesFromLegs(checked.compiled, legs).slice(-range.limit);
}

/** SP7_BUY or SP7_SELL: the shape of a user definition's side, whether or not it exists. */
export function isUserSideSymbol(symbol: string): boolean {
  const parsed = parseExecutableSymbol(symbol);
  return parsed !== undefined && userSpreadId(parsed.symbol) !== undefined;
}
