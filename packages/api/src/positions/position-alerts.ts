// Position alerts (README "Positions (paper)"): a position's net ₹ against its target and stop,
// judged on the leader at every quote of the position's exit symbol and delivered through the
// spread alerts' channels (the History, Telegram and webhooks through the outbox; the browser
// computes the same marks from the stream). Only positions on the symbols a quote recomputed are
// looked at: the index goes from exit symbol to the positions with a target or a stop on it.
import {
  type CostRates,
  defaultCostRates,
  definitionCosts,
  isPastRearmLevel,
  markPosition,
  markSymbolOf,
  type Prices,
  perLot,
  roundPaise,
  type SpecOf,
  type SpreadSymbol,
  type ThresholdSide,
  totalCosts,
} from "@spreadwatch/core";
import type { PositionCrossing, Store } from "@spreadwatch/db";
import { isBuiltIn } from "../alerts/watched-symbols.ts";
import { positionWebhookBody } from "../alerts/webhook-payload.ts";
import { log, warnEvery } from "../log.ts";
import type { DefinitionEntry, HubUpdate, LiveEntry } from "../market/hub.ts";
import type { SpreadRegistry } from "../spreads/registry.ts";

/** What the watcher needs of an open position (the store's positions carry more). */
export interface WatchedPosition {
  id: number;
  ownerId: number;
  /** The definition's symbol: GC, SP7. */
  spread: string;
  side: "BUY" | "SELL";
  /** Open lots. */
  lots: number;
  entry: number;
  /** ₹ per spread point per lot. */
  units: number;
  targetInr: number | null;
  stopInr: number | null;
}

/** Where the open positions with a target or a stop come from (the store, through the service). */
export interface PositionAlertSource {
  /** Every user's open positions with a target or a stop, or only `userId`'s. */
  listWatched(userId?: number): Promise<readonly WatchedPosition[]>;
}

/** Why a symbol's value must not fire now (the alert engine's LegWatch: a stale leg, a closed market). */
export interface HoldJudge {
  holdReason(symbol: string, prices: Readonly<Prices>): string | undefined;
}

/**
 * Round-trip costs of one lot of `symbol`'s spread at its current entry, in ₹; undefined when
 * they cannot be told (then the position is not judged: a net without its costs would fire early).
 */
export type CostsPerLot = (
  symbol: string,
  entry: LiveEntry,
  prices: Readonly<Prices>,
) => number | undefined;

/**
 * The costs the Positions tab shows (docs/formulas.md): a built-in parity's perLot at its entry's
 * MCX price, a definition's definitionCosts at its legs' prices now (a definition without lots
 * on its legs costs nothing).
 */
export function liveCostsPerLot(
  spreads: Pick<SpreadRegistry, "executable"> | undefined,
  specOf: SpecOf,
  rates: CostRates = defaultCostRates(),
): CostsPerLot {
  return (symbol, entry, prices) => {
    if (isBuiltIn(symbol)) {
      if (!("mcx" in entry)) return undefined;
      return perLot(symbol as SpreadSymbol, entry, entry.usdinr, {}, rates)?.costsInr;
    }
    const spread = spreads?.executable(symbol)?.spread;
    const legs = (entry as DefinitionEntry).legs;
    if (!spread || !legs) return undefined;
    const legPrices: Record<string, number> = {};
    for (const name in legs) legPrices[name] = (legs[name] as { price: number }).price;
    const usdinr = prices.fx.USDINR?.price ?? Number.NaN;
    const costs = definitionCosts(spread.legs, legPrices, usdinr, rates, specOf);
    return costs && roundPaise(totalCosts(costs));
  };
}

/** The built-in parities' costs only (tests, and a server with no definitions). */
export const builtInCostsPerLot: CostsPerLot = liveCostsPerLot(undefined, () => undefined);

/**
 * After a firing, a target waits until net ₹ has fallen back this far below it (a stop: risen
 * above it) before it can fire again: the spread alerts' hysteresis (core's hysteresis.ts) at a
 * fixed distance, 1 % of the level and at least ₹100, so a net wobbling on its target sends one
 * message, not one per tick.
 */
export function rearmDistance(threshold: number): number {
  return Math.max(100, Math.abs(threshold) * 0.01);
}

type Kind = "target" | "stop";

/** One of a position's two levels, and where net ₹ last stood against it. */
interface Level {
  kind: Kind;
  threshold: number;
  /** target: "above" (net ≥ target); stop: "below" (net ≤ stop). */
  direction: ThresholdSide;
  /** Whether the last trusted net had reached the level; unknown until the first one. */
  reached: boolean | undefined;
  /** False after a firing until net has moved back past the re-arm distance. */
  armed: boolean;
  /** Held now and already in the History for this hold. */
  heldNoted: boolean;
}

interface Watch {
  position: WatchedPosition;
  /** The executable exit: GC_SELL for a BUY position on GC. */
  symbol: string;
  /** +1 for BUY (gains as the exit rises), −1 for SELL. */
  sign: 1 | -1;
  levels: Level[];
}

interface Pending {
  watch: Watch;
  level: Level;
  mark: number;
  /** Costs per lot at the mark. */
  costs: number;
  state: "fired" | "held";
  note?: string;
}

/** The exit symbol of a position: a BUY is valued at the spread's SELL, and the reverse. */
export const exitSymbolOf = markSymbolOf;

/**
 * Net ₹ (total) as core's markPosition gives it (what the Positions tab shows): gross to paise
 * less every lot's costs to paise. The update loop compares a plain float first and asks this
 * only within a paisa or two of a level, where the roundings could disagree.
 */
export function netInr(position: WatchedPosition, mark: number, costsPerLot: number): number {
  const marked = markPosition(
    { ...position, openedAt: 0 },
    { mark, costsPerLotInr: costsPerLot, now: 0 },
  );
  return marked.netInr ?? Number.NaN;
}

/** Within this of a level the exact (decimal) rounding decides. */
const NEAR_LEVEL_INR = 0.02;

const inrFormat = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 2 });

/** "₹12,400", "₹12,400.5", "-₹3,000": rupees with Indian digit groups. */
export function formatInr(value: number): string {
  const text = `₹${inrFormat.format(Math.abs(value))}`;
  return value < 0 ? `-${text}` : text;
}

/** "BUY 2 × GC: net ₹12,400 reached target ₹12,000" (a stop: "fell to stop"). */
export function positionMessage(
  position: Pick<WatchedPosition, "side" | "lots" | "spread">,
  kind: Kind,
  net: number,
  threshold: number,
): string {
  const what = kind === "target" ? "reached target" : "fell to stop";
  return `${position.side} ${position.lots} × ${position.spread}: net ${formatInr(net)} ${what} ${formatInr(threshold)}`;
}

export interface PositionAlertsOptions {
  /** Why a symbol is held (the alert engine's: the same legs, the same windows). */
  legs: HoldJudge;
  /** Costs per lot of a definition's or built-in's spread; defaults to the built-ins' only. */
  costs?: CostsPerLot;
  /** Called after firings were queued, to wake the outbox senders. */
  onQueued: () => void;
  /** A spread's name for messages (the definition's); the symbol otherwise. */
  nameOf?: (spread: string) => string | undefined;
}

/**
 * Watches the open positions that have a target or a stop, on the leader. Net ₹ of each is
 * judged at each value of its exit symbol; it fires once when it reaches a level (target: net ≥
 * target; stop: net ≤ stop) and again only after moving back past the re-arm distance. The first
 * value after a start or an edit only records where net stands (as spread alerts do), so a level
 * already reached when it was set does not fire until net leaves it and comes back. A value on a
 * held symbol (stale leg, closed market) never fires and does not move the state on: the
 * crossing gets one "held" History entry per hold and fires on fresh prices.
 */
export class PositionAlerts {
  /** Exit symbol → the watches on it, as an array: the update loop only iterates. */
  private readonly bySymbol = new Map<string, Watch[]>();
  private readonly byId = new Map<number, Watch>();
  /** Per symbol, the entry the costs were last computed for (entries are replaced, never changed). */
  private readonly costCache = new Map<string, { entry: LiveEntry; costs: number | undefined }>();
  private writes: Promise<void> = Promise.resolve();
  private readonly costs: CostsPerLot;

  constructor(
    private readonly store: Pick<Store, "firings">,
    private readonly source: PositionAlertSource,
    private readonly options: PositionAlertsOptions,
  ) {
    this.costs = options.costs ?? builtInCostsPerLot;
  }

  /** A term as leader starts from the stored positions; their sides are learned afresh. */
  async start(): Promise<void> {
    const positions = await this.source.listWatched();
    this.byId.clear();
    this.bySymbol.clear();
    this.costCache.clear();
    this.replace(positions);
  }

  /** Resolves when the writes already queued are done. */
  async stop(): Promise<void> {
    await this.writes;
  }

  async idle(): Promise<void> {
    await this.writes;
  }

  /** A position of `userId` was opened, edited, closed or deleted (on any instance). */
  positionsChanged(userId: number): void {
    this.queue(async () => this.replace(await this.source.listWatched(userId), userId));
  }

  /** The bus is at most once: everything is read again when it comes back. */
  busReconnected(): void {
    this.queue(async () => this.replace(await this.source.listWatched()));
  }

  get watchedCount(): number {
    return this.byId.size;
  }

  /**
   * Puts `positions` in the index: every user's, or only `userId`'s (theirs not listed leave).
   * A position already watched keeps where it stood when its levels and lots are the same.
   */
  private replace(positions: readonly WatchedPosition[], userId?: number): void {
    const next = new Map<number, Watch>();
    for (const position of positions) {
      if (userId !== undefined && position.ownerId !== userId) continue;
      const watch = this.toWatch(position);
      if (watch) next.set(position.id, watch);
    }
    for (const [id, watch] of this.byId) {
      if (userId !== undefined && watch.position.ownerId !== userId) continue;
      if (!next.has(id)) this.byId.delete(id);
    }
    for (const [id, watch] of next) this.byId.set(id, watch);
    this.bySymbol.clear();
    for (const watch of this.byId.values()) {
      const list = this.bySymbol.get(watch.symbol);
      if (list) list.push(watch);
      else this.bySymbol.set(watch.symbol, [watch]);
    }
  }

  private toWatch(position: WatchedPosition): Watch | undefined {
    const levels: Level[] = [];
    const known = this.byId.get(position.id);
    const same = known && sameJudgement(known.position, position);
    const level = (kind: Kind, threshold: number | null) => {
      if (threshold === null || !Number.isFinite(threshold)) return;
      const before = same ? known?.levels.find((l) => l.kind === kind) : undefined;
      levels.push(
        before ?? {
          kind,
          threshold,
          direction: kind === "target" ? "above" : "below",
          reached: undefined,
          armed: true,
          heldNoted: false,
        },
      );
    };
    level("target", position.targetInr);
    level("stop", position.stopInr);
    if (levels.length === 0 || position.lots <= 0) return undefined;
    return {
      position,
      symbol: exitSymbolOf(position),
      sign: position.side === "BUY" ? 1 : -1,
      levels,
    };
  }

  /** Every accepted quote while this instance leads (after the alert engine saw it). */
  onUpdate(update: HubUpdate): void {
    let pending: Pending[] | undefined;
    const entries = update.calculations as unknown as Readonly<
      Record<string, LiveEntry | undefined>
    >;
    for (const symbol of update.symbols) {
      const watches = this.bySymbol.get(symbol);
      if (!watches) continue;
      const entry = entries[symbol];
      // No value (a leg missing, a crossed book): nothing to judge; the state stays.
      if (!entry || !Number.isFinite(entry.spread)) continue;
      const costs = this.costsOf(symbol, entry, update.prices);
      if (costs === undefined) continue;
      const hold = this.options.legs.holdReason(symbol, update.prices);
      const mark = entry.spread;
      for (const watch of watches) {
        const p = watch.position;
        const rough = watch.sign * (mark - p.entry) * p.units * p.lots - costs * p.lots;
        for (const level of watch.levels) {
          const net =
            Math.abs(rough - level.threshold) < NEAR_LEVEL_INR ? netInr(p, mark, costs) : rough;
          const reached = level.kind === "target" ? net >= level.threshold : net <= level.threshold;
          if (hold !== undefined) {
            if (level.reached === false && reached && level.armed && !level.heldNoted) {
              level.heldNoted = true;
              pending ??= [];
              pending.push({ watch, level, mark, costs, state: "held", note: hold });
            }
            continue;
          }
          level.heldNoted = false;
          const before = level.reached;
          level.reached = reached;
          if (before === undefined) {
            // The first value only records where net stands; one already past its level waits
            // to come back past the re-arm distance, as after a firing.
            if (reached) level.armed = false;
            continue;
          }
          if (!before && reached && level.armed) {
            level.armed = false;
            pending ??= [];
            pending.push({ watch, level, mark, costs, state: "fired" });
          } else if (!level.armed && isPastRearmLevel(hysteresisOf(level), net)) {
            level.armed = true;
          }
        }
      }
    }
    if (pending) {
      const crossings = pending.map((p) => this.toCrossing(p, update.quote.ts));
      this.queue(() => this.record(crossings));
    }
  }

  private costsOf(symbol: string, entry: LiveEntry, prices: Readonly<Prices>): number | undefined {
    const cached = this.costCache.get(symbol);
    if (cached?.entry === entry) return cached.costs;
    const costs = this.costs(symbol, entry, prices);
    this.costCache.set(symbol, { entry, costs });
    return costs;
  }

  private toCrossing(p: Pending, at: number): PositionCrossing {
    const { position } = p.watch;
    const net = netInr(position, p.mark, p.costs);
    const name = this.options.nameOf?.(position.spread) ?? position.spread;
    const shown = { ...position, spread: name };
    const text = positionMessage(shown, p.level.kind, net, p.level.threshold);
    return {
      userId: position.ownerId,
      symbol: p.watch.symbol,
      value: net,
      threshold: p.level.threshold,
      direction: p.level.direction,
      state: p.state,
      note: p.state === "held" ? `${text}. ${p.note}` : text,
      at,
      now: Date.now(),
      text,
      webhookBody: (firingId) =>
        positionWebhookBody({
          firingId,
          positionId: position.id,
          spread: position.spread,
          side: position.side,
          lots: position.lots,
          kind: p.level.kind,
          symbol: p.watch.symbol,
          mark: p.mark,
          netInr: net,
          thresholdInr: p.level.threshold,
          firedAt: at,
          text,
        }),
    };
  }

  private async record(crossings: readonly PositionCrossing[]): Promise<void> {
    const results = await this.store.firings.recordPositionCrossings(crossings);
    const fired = crossings.filter((c, i) => c.state === "fired" && results[i]).length;
    const queued = results.some((r) => (r?.outbox.length ?? 0) > 0);
    if (fired > 0) log.info({ fired, queued }, "position alerts fired");
    if (crossings.length > fired) {
      log.info({ held: crossings.length - fired }, "position alerts held until fresh prices");
    }
    if (queued) this.options.onQueued();
  }

  /** Runs `write` after every write queued before it; a failure is logged, not thrown. */
  private queue(write: () => Promise<void>): void {
    this.writes = this.writes.then(write).catch((error: unknown) => {
      warnEvery(
        "position-alerts-write",
        60_000,
        { err: error },
        "position alerts: could not write",
      );
    });
  }
}

/** Whether an edit leaves a watch's state meaningful: the same side, entry, units, lots and levels. */
function sameJudgement(a: WatchedPosition, b: WatchedPosition): boolean {
  return (
    a.spread === b.spread &&
    a.side === b.side &&
    a.entry === b.entry &&
    a.units === b.units &&
    a.lots === b.lots &&
    a.targetInr === b.targetInr &&
    a.stopInr === b.stopInr
  );
}

/** The level as core's hysteresis reads it: it fired into its direction, at its re-arm distance. */
function hysteresisOf(level: Level) {
  return {
    threshold: level.threshold,
    hysteresis: rearmDistance(level.threshold),
    lastFiredSide: level.direction,
  };
}
