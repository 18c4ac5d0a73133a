// The past of a user's own spread (docs/formulas.md, "History from the legs"): its recorded
// candles from its first live value on, and before that candles computed from its legs' stored
// mid candles with core's MID evaluation of its formula.
import {
  bookIn,
  type Candle,
  candlesFromLegs,
  evaluateSide,
  type Prices,
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
 * The definition's mid candles from its legs' stored candles of `timeframe` in [from, to), the
 * most recent `limit` (every leg's most recent `limit` cover them). Empty for a definition that
 * no longer checks.
 */
export async function candlesFromLegHistory(
  store: Store,
  spread: RegisteredSpread,
  timeframe: Timeframe,
  range: { from?: number | undefined; to: number; limit: number },
): Promise<Candle[]> {
  const checked = spread.checked;
  if (!checked || range.limit <= 0) return [];
  const legs = await Promise.all(
    checked.legs.map((leg) =>
      store.instrumentCandles.recent({
        symbol: leg.instrument,
        timeframe,
        to: range.to,
        limit: range.limit,
        ...(range.from !== undefined && { from: range.from }),
      }),
    ),
  );
  return candlesFromLegs(checked.compiled, legs).slice(-range.limit);
}

/** A side's value now, from the hub's prices, as the hub evaluates it (core's evaluateSide). */
export function definitionValueNow(definition: DefinitionSide, prices: Prices): number | undefined {
  const checked = definition.spread.checked;
  if (!checked) return undefined;
  const books = checked.legs.map((leg) => bookIn(prices, leg.instrument));
  return evaluateSide(checked.compiled, books, definition.side)?.value;
}

/** SP7_BUY or SP7_SELL: the shape of a user definition's side, whether or not it exists. */
export function isUserSideSymbol(symbol: string): boolean {
  const parsed = parseExecutableSymbol(symbol);
  return parsed !== undefined && userSpreadId(parsed.symbol) !== undefined;
}
