// Users' spread positions (docs/http-api.md "Positions API (paper)"): open, value, close and roll
// them. No order is ever sent anywhere; a position is the trader's own record. Every call is scoped
// to the caller's own positions: another user's (an admin's view included) does not exist.
import {
  type ContractMove,
  type CostRates,
  contractMoved,
  contractMoveText,
  DEFAULT_LOTS,
  definitionUnits,
  executableSymbol,
  exitSideOf,
  INSTRUMENTS,
  type InstrumentId,
  type InstrumentSpec,
  mcxLot,
  type PositionSide,
  realisedInr,
  roundPaise,
  shippedInstrument,
} from "@spreadwatch/core";
import type { PositionClose, PositionLeg, Store, StoredPosition } from "@spreadwatch/db";
import type { Bus } from "../bus/index.ts";
import type { InstrumentCatalogue } from "../instruments/catalogue.ts";
import { warnEvery } from "../log.ts";
import type { MarketHub } from "../market/hub.ts";
import { MID_ONLY_SYMBOLS } from "../spreads/built-ins.ts";
import type { RegisteredSpread, SpreadRegistry, SpreadViewer } from "../spreads/registry.ts";
import { costsAt } from "./costs.ts";
import { expiresInDays, type LiveSide, legContracts, legsStale, liveSide } from "./live.ts";
import {
  configuredMarginSource,
  type MarginPosition,
  marginPosition,
  type PositionMarginSource,
} from "./margin.ts";
import { PositionError, positionNotFound } from "./position-error.ts";
import {
  type BrokerCosts,
  type Margin,
  type PositionView,
  positionView,
  type Valuation,
} from "./view.ts";

/** PositionsService.preview: what a position about to be opened would block and cost. */
export interface PositionPreview {
  /** Round trip of every lot, ₹. */
  costsInr: number | null;
  margin: Margin | null;
}

export interface PositionsServiceOptions {
  store: Store;
  hub: MarketHub;
  spreads: SpreadRegistry;
  instruments: InstrumentCatalogue;
  bus: Bus;
  costRates: () => CostRates;
  now?: () => number;
}

const BUILT_IN_PARITIES = new Set<string>(INSTRUMENTS.map((i) => i.id));
const DAY_MS = 86_400_000;
const IST_MS = 330 * 60_000;
const NO_POSITIONS: readonly StoredPosition[] = Object.freeze([]);

export class PositionsService {
  private readonly store: Store;
  private readonly now: () => number;
  /** Every user's open positions by spread symbol (GC, SP7), each array replaced, never changed. */
  private bySymbol = new Map<string, readonly StoredPosition[]>();
  private byOwner = new Map<number, readonly StoredPosition[]>();
  private readonly listeners = new Set<(userId: number) => void>();
  private loading: Promise<void> = Promise.resolve();
  /** Each mark symbol's last live side: what a stale position shows, greyed. */
  private readonly lastSides = new Map<string, LiveSide>();
  /**
   * Each open position's last live side on the contracts it holds: what it shows, greyed, once
   * a leg's feed has rolled to another contract (the symbol's live side is then another's).
   */
  private readonly lastHeld = new Map<number, LiveSide>();
  /** The first minute's open of a symbol on an IST day: it never changes once recorded. */
  private readonly dayOpens = new Map<string, number>();
  private marginSource: PositionMarginSource;

  constructor(private readonly options: PositionsServiceOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.marginSource = configuredMarginSource(this.specOf, undefined, this.now);
  }

  /** Reads every open position (start, and again when the bus reconnects). */
  load(): Promise<void> {
    return this.serially(async () => {
      const byOwner = new Map<number, StoredPosition[]>();
      const bySymbol = new Map<string, StoredPosition[]>();
      for (const p of await this.store.positions.listOpen()) {
        push(byOwner, p.ownerId, p);
        push(bySymbol, p.spread, p);
      }
      this.byOwner = byOwner;
      this.bySymbol = bySymbol;
    });
  }

  /** The open positions (anyone's) on spread `symbol` (GC, SP7): position alerts read this. */
  openPositionsOn(symbol: string): readonly StoredPosition[] {
    return this.bySymbol.get(symbol) ?? NO_POSITIONS;
  }

  /** Hears of every user whose positions changed (on any instance, through the bus). */
  onChange(listener: (userId: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Kite's basket margins and contract notes replace the configured figures (kite-margins.ts). */
  setMarginSource(source: PositionMarginSource): void {
    this.marginSource = source;
  }

  /**
   * A user's positions changed somewhere (bus "positions.changed"): re-read theirs. A failed
   * read is warned about, not thrown: the bus handler starts this with `void`.
   */
  async ownerChanged(userId: number): Promise<void> {
    try {
      await this.serially(async () => {
        const open = await this.store.positions.list(userId, "open");
        const before = this.byOwner.get(userId) ?? NO_POSITIONS;
        if (open.length === 0) this.byOwner.delete(userId);
        else this.byOwner.set(userId, open);
        // Only the spreads this owner was or is on change, each array replaced (readers keep theirs).
        for (const symbol of new Set([...before, ...open].map((p) => p.spread))) {
          const next = (this.bySymbol.get(symbol) ?? NO_POSITIONS)
            .filter((p) => p.ownerId !== userId)
            .concat(open.filter((p) => p.spread === symbol));
          if (next.length === 0) this.bySymbol.delete(symbol);
          else this.bySymbol.set(symbol, next);
        }
      });
    } catch (error) {
      warnEvery("positions-reload", 60_000, { err: error }, "could not reload a user's positions");
    }
    for (const listener of this.listeners) listener(userId);
  }

  /** Reads one after another, so an older read never replaces a newer one. */
  private serially(work: () => Promise<void>): Promise<void> {
    const next = this.loading.then(work);
    this.loading = next.catch(() => {});
    return next;
  }

  /** Tells every instance (this one included) that `userId`'s positions changed. */
  announce(userId: number): void {
    this.options.bus.publish("positions.changed", { userId });
  }

  specOf = (key: string): InstrumentSpec | undefined =>
    this.options.instruments.get(key) ?? shippedInstrument(key);

  /** The definition a viewer may open a position on: visible, with BUY and SELL sides. */
  tradable(viewer: SpreadViewer, symbol: string): RegisteredSpread {
    const spread = this.options.spreads.bySymbolName(symbol);
    if (
      !spread ||
      MID_ONLY_SYMBOLS.has(spread.symbol) ||
      !this.options.spreads.canSee(viewer, spread.symbol)
    )
      throw new PositionError("not_found", `Spread ${symbol} not found`);
    if (!spread.checked)
      throw new PositionError(
        "conflict",
        `Spread ${symbol} does not evaluate; fix its formula first`,
      );
    return spread;
  }

  /** ₹ per spread point per lot: the standard MCX lot for a parity, the definition's lots, else 1. */
  unitsOf(spread: RegisteredSpread): number {
    if (spread.builtin && BUILT_IN_PARITIES.has(spread.symbol))
      return mcxLot(DEFAULT_LOTS[spread.symbol as InstrumentId]).units;
    return definitionUnits(spread.legs, this.specOf) ?? 1;
  }

  /** One side of `spread` now, with whether its legs are fresh. */
  side(
    spread: RegisteredSpread,
    side: PositionSide,
  ): { live: LiveSide | undefined; stale: boolean } {
    const prices = this.options.hub.snapshot().prices;
    const symbol = executableSymbol(spread.symbol, side);
    const live = liveSide(this.options.hub, spread, symbol, prices);
    if (live) this.lastSides.set(symbol, live);
    const instruments = spread.legs.map((leg) => leg.instrument);
    return { live, stale: !live || legsStale(prices, instruments, this.now()) };
  }

  /** A leg of `position` whose feed has rolled past the contract it holds (see contractMoved). */
  contractMovedOf(position: Pick<StoredPosition, "legs">): ContractMove | undefined {
    const prices = this.options.hub.snapshot().prices;
    return contractMoved(position.legs, (key) => prices.contracts?.[key]?.contract);
  }

  /**
   * The live value to enter or exit at, or 409 when there is none or a leg is stale; for an exit
   * (`held`: the position's legs), also when a leg's feed has moved to another contract.
   */
  liveOrRefuse(
    spread: RegisteredSpread,
    side: PositionSide,
    held?: Pick<StoredPosition, "legs">,
  ): LiveSide {
    const moved = held && this.contractMovedOf(held);
    if (moved) throw new PositionError("conflict", contractMoveText(moved));
    const { live, stale } = this.side(spread, side);
    if (!live || stale)
      throw new PositionError(
        "conflict",
        `No live value for ${executableSymbol(spread.symbol, side)} (a leg has no fresh price); type the price instead`,
      );
    return live;
  }

  legsAt(
    spread: Pick<RegisteredSpread, "legs">,
    prices: Readonly<Record<string, number>>,
  ): Record<string, PositionLeg> {
    const contracts = legContracts(this.options.hub.snapshot().prices, spread);
    const legs: Record<string, PositionLeg> = {};
    for (const leg of spread.legs) {
      const price = prices[leg.name];
      if (price === undefined) continue;
      const contract = contracts[leg.name];
      legs[leg.name] = { instrument: leg.instrument, price, ...(contract && { contract }) };
    }
    return legs;
  }

  /** Round-trip costs of one lot of `spread` valued at `value` with these leg prices. */
  costsPerLot(
    spread: RegisteredSpread | undefined,
    markSymbol: string,
    value: number,
    legPrices: Readonly<Record<string, number>>,
  ) {
    const usdinr = this.options.hub.snapshot().prices.fx.USDINR?.price;
    return costsAt(
      spread,
      markSymbol,
      value,
      legPrices,
      this.options.costRates(),
      this.specOf,
      usdinr,
    );
  }

  /**
   * What opening `lots` of `spread` on `side` at its live value would block and cost: the Open
   * form's preview, by the margin source and cost model the position is then valued with (the
   * preview is no position: id 0 holds no contract). Null figures while the side has no value.
   */
  async preview(
    viewer: SpreadViewer,
    input: { spread: string; side: PositionSide; lots: number },
  ): Promise<PositionPreview> {
    const spread = this.tradable(viewer, input.spread);
    // At the exit side's legs and value, as valuation() marks an open position, so the figures
    // are the ones the position shows once opened.
    const { live } = this.side(spread, exitSideOf(input.side));
    if (!live) return { costsInr: null, margin: null };
    const markSymbol = executableSymbol(spread.symbol, exitSideOf(input.side));
    const perLot = this.costsPerLot(spread, markSymbol, live.value, live.legs)?.perLotInr;
    const prices = this.options.hub.snapshot().prices;
    const forMargin = marginPosition(
      { id: 0, side: input.side, lots: input.lots, legs: {} },
      spread,
      live.legs,
      legContracts(prices, spread),
    );
    const margin = await this.margin(forMargin, live.usdinr ?? prices.fx.USDINR?.price);
    return {
      costsInr: perLot === undefined ? null : roundPaise(perLot * input.lots),
      margin,
    };
  }

  /** The realised net ₹ of a close at `exit`, costs at the exit's leg prices. */
  realiser(spread: RegisteredSpread | undefined, exitLegs: Readonly<Record<string, number>>) {
    return (position: StoredPosition, lots: number, exit: number) => {
      const markSymbol = executableSymbol(position.spread, exitSideOf(position.side));
      const legPrices = { ...entryPrices(position), ...exitLegs };
      const costs = this.costsPerLot(spread, markSymbol, exit, legPrices)?.perLotInr ?? 0;
      return realisedInr(position.side, position.entry, exit, position.units, lots, costs);
    };
  }

  /** The caller's positions with that status, valued now. */
  async list(ownerId: number, status: "open" | "closed"): Promise<PositionView[]> {
    const [open, closed, closes] = await Promise.all([
      this.store.positions.list(ownerId, "open"),
      this.store.positions.list(ownerId, "closed"),
      this.store.positions.closes(ownerId),
    ]);
    return this.views(status === "open" ? open : closed, [...open, ...closed], closes);
  }

  async get(ownerId: number, id: number): Promise<PositionView> {
    const position = await this.store.positions.find(ownerId, id);
    if (!position) throw positionNotFound();
    return (await this.viewsOf(ownerId, [position]))[0] as PositionView;
  }

  /** Views of some of the owner's positions, with what their campaigns need. */
  async viewsOf(ownerId: number, positions: readonly StoredPosition[]): Promise<PositionView[]> {
    const [open, closed, closes] = await Promise.all([
      this.store.positions.list(ownerId, "open"),
      this.store.positions.list(ownerId, "closed"),
      this.store.positions.closes(ownerId),
    ]);
    return this.views(positions, [...open, ...closed], closes);
  }

  private async views(
    positions: readonly StoredPosition[],
    all: readonly StoredPosition[],
    closes: readonly PositionClose[],
  ): Promise<PositionView[]> {
    const now = this.now();
    const listed = new Set(positions.map((p) => p.id));
    const campaigns = new Set(positions.map((p) => p.campaignId));
    // A campaign's ₹ includes the net of its open lots, so its open members are valued too.
    const members = all.filter(
      (p) => p.status === "open" && campaigns.has(p.campaignId) && !listed.has(p.id),
    );
    const valued = [...positions, ...members];
    const valuations = await Promise.all(valued.map((p) => this.valuation(p, now)));
    const views = valued.map((p, i) => positionView(p, valuations[i] as Valuation, closes, now));
    const campaignOf = new Map(all.map((p) => [p.id, p.campaignId]));
    const totals = new Map<number, number | null>();
    for (const close of closes) {
      const campaign = campaignOf.get(close.positionId);
      if (campaign === undefined || !campaigns.has(campaign)) continue;
      totals.set(campaign, (totals.get(campaign) ?? 0) + close.realisedInr);
    }
    for (const view of views) {
      if (view.status !== "open") continue;
      const total = totals.get(view.campaignId) ?? 0;
      totals.set(
        view.campaignId,
        total === null || view.netInr === null ? null : total + view.netInr,
      );
    }
    return views.slice(0, positions.length).map((view) => {
      const total = totals.get(view.campaignId) ?? 0;
      return { ...view, campaignInr: total === null ? null : roundPaise(total) };
    });
  }

  /** What the hub, the candles and the margin source say of a position now. */
  private async valuation(position: StoredPosition, now: number): Promise<Valuation> {
    const markSymbol = executableSymbol(position.spread, exitSideOf(position.side));
    const spread = this.options.spreads.bySymbolName(position.spread);
    const base: Valuation = {
      name: spread?.name ?? position.spread,
      markSymbol,
      mark: undefined,
      markedAt: null,
      costsPerLotInr: undefined,
      breakdown: null,
      dayOpenMark: undefined,
      margin: null,
      brokerCosts: null,
      stale: true,
      expiresInDays: null,
      contractMoved: null,
    };
    if (position.status !== "open" || !spread) {
      this.lastHeld.delete(position.id);
      return base;
    }
    const prices = this.options.hub.snapshot().prices;
    const moved = this.contractMovedOf(position) ?? null;
    const side = this.side(spread, exitSideOf(position.side));
    const live = moved ? undefined : side.live;
    const stale = side.stale || moved !== null;
    if (live) this.lastHeld.set(position.id, live);
    const shown = moved
      ? this.lastHeld.get(position.id)
      : (live ?? this.lastHeld.get(position.id) ?? this.lastSides.get(markSymbol));
    const legPrices = shown?.legs ?? entryPrices(position);
    const costs = this.costsPerLot(spread, markSymbol, shown?.value ?? position.entry, legPrices);
    const usdinr = shown?.usdinr ?? prices.fx.USDINR?.price;
    const forMargin = marginPosition(position, spread, legPrices, legContracts(prices, spread));
    const [dayOpenMark, margin, brokerCosts] = await Promise.all([
      this.dayOpen(markSymbol, position, now),
      this.margin(forMargin, usdinr),
      this.brokerCosts(forMargin),
    ]);
    return {
      ...base,
      mark: shown?.value,
      markedAt: shown ? shown.at : null,
      costsPerLotInr: costs?.perLotInr,
      breakdown: costs?.breakdown ?? null,
      dayOpenMark,
      margin,
      brokerCosts,
      stale,
      // Moved: the contract held has reached its roll; the position is due now.
      expiresInDays: moved ? 0 : expiresInDays(spread, prices, this.specOf, now),
      contractMoved: moved,
    };
  }

  /**
   * The margin one lot of `spread` blocks at these leg prices, from the margin source a
   * position would use (a backtest's return on margin); undefined when there is none.
   */
  async marginPerLot(
    spread: RegisteredSpread,
    legPrices: Readonly<Record<string, number>>,
    usdinr: number | undefined,
  ): Promise<number | undefined> {
    const oneLot = { id: 0, lots: 1, side: "BUY", legs: {} } as unknown as StoredPosition;
    const prices = this.options.hub.snapshot().prices;
    const forMargin = marginPosition(oneLot, spread, legPrices, legContracts(prices, spread));
    return (await this.margin(forMargin, usdinr ?? prices.fx.USDINR?.price))?.inr;
  }

  private async margin(
    position: MarginPosition,
    usdinr: number | undefined,
  ): Promise<Margin | null> {
    try {
      // Without USDINR only the US legs cannot be margined (core's configuredMargin says so);
      // an all-MCX calendar needs no rate, so no USDINR quote must not hide its margin.
      return (await this.marginSource.marginFor(position, usdinr ?? Number.NaN)) ?? null;
    } catch (error) {
      warnEvery("positions-margin", 60_000, { err: error }, "could not get a position's margin");
      return null;
    }
  }

  private async brokerCosts(position: MarginPosition): Promise<BrokerCosts | null> {
    try {
      return (await this.marginSource.brokerCosts(position)) ?? null;
    } catch (error) {
      warnEvery(
        "positions-broker-costs",
        60_000,
        { err: error },
        "could not get the broker's costs",
      );
      return null;
    }
  }

  /**
   * The open of the mark symbol's first one-minute candle since 00:00 IST today; the entry when
   * the position was opened later than that candle, or when there is none yet.
   */
  private async dayOpen(
    symbol: string,
    position: StoredPosition,
    now: number,
  ): Promise<number | undefined> {
    const dayStart = Math.floor((now + IST_MS) / DAY_MS) * DAY_MS - IST_MS;
    if (position.openedAt >= dayStart) return position.entry;
    const key = `${symbol}|${dayStart}`;
    const known = this.dayOpens.get(key);
    if (known !== undefined) return known;
    const [first] = await this.store.candles.recent({
      symbol,
      timeframe: "1m",
      from: dayStart,
      to: dayStart + DAY_MS,
      limit: 1440,
    });
    if (!first) return undefined;
    if (this.dayOpens.size > 10_000) this.dayOpens.clear();
    this.dayOpens.set(key, first.open);
    return first.open;
  }
}

function push<K>(map: Map<K, StoredPosition[]>, key: K, position: StoredPosition): void {
  const list = map.get(key);
  if (list) list.push(position);
  else map.set(key, [position]);
}

/** The entry's leg prices by name (what a typed exit is costed at when no leg is live). */
export function entryPrices(position: StoredPosition): Record<string, number> {
  return Object.fromEntries(Object.entries(position.legs).map(([name, leg]) => [name, leg.price]));
}
