// Position alerts (docs/user-guide.md "Positions (paper)"): a position's net ₹ against its target
// and stop, judged on the leader at every quote of the position's exit symbol and delivered through
// the spread alerts' channels (the History, Telegram and webhooks through the outbox; the browser
// computes the same marks from the stream). Only positions on the symbols a quote recomputed are
// looked at: the index goes from exit symbol to the positions with a target or a stop on it.
import {
  contractMoved,
  contractMoveText,
  levelReached,
  levelRearmed,
  type PositionLevelKind,
  type Prices,
  type ThresholdSide,
} from "@spreadwatch/core";
import type { PositionCrossing, Store } from "@spreadwatch/db";
import { positionFiringPayload } from "../alerts/firing-payload.ts";
import { log, warnEvery } from "../log.ts";
import type { HubUpdate, LiveEntry } from "../market/hub.ts";
import type { SpreadChange } from "../spreads/registry.ts";
import type { PositionAlertSource, WatchedPosition } from "./position-alert-source.ts";
import { builtInCostsPerLot, type CostsPerLot, exitSymbolOf, netInr } from "./position-net.ts";

/** Why a symbol's value must not fire now (the alert engine's LegWatch: a stale leg, a closed market). */
export interface HoldJudge {
  holdReason(symbol: string, prices: Readonly<Prices>): string | undefined;
}

type Kind = PositionLevelKind;

/**
 * One of a position's two levels, and where net ₹ last stood against it. Net ₹ is
 * units × lots × (v − sign × entry), where v = sign × mark − costs per lot ÷ units is the same
 * for every position of a group (one exit symbol, side and units): so a level is reached exactly
 * when v passes `key` = sign × entry + level ÷ (units × lots), and a quote only has to look at
 * the levels whose key lies between the group's last v and its new one.
 */
interface Level {
  watch: Watch;
  kind: Kind;
  threshold: number;
  /** target: "above" (net ≥ target); stop: "below" (net ≤ stop). */
  direction: ThresholdSide;
  key: number;
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

/** The positions of one exit symbol, side and units: their levels sorted by key. */
interface Group {
  id: string;
  sign: 1 | -1;
  units: number;
  levels: Level[];
  keys: Float64Array;
  /** The last trusted value of the exit and its costs per lot (v follows from them). */
  last: { mark: number; costs: number; v: number } | undefined;
  /** Levels that fired and wait to re-arm: looked at on every value until they do. */
  disarmed: Set<Level>;
  /** Levels noted as held during the current hold. */
  noted: Level[];
  /** [instrument, contract] of each leg the group's positions hold, where known. */
  held: string[][];
}

interface Pending {
  level: Level;
  mark: number;
  /** Costs per lot at the mark. */
  costs: number;
  state: "fired" | "held";
  note?: string;
}

/**
 * Within this of a level (plus half a paisa per lot: the costs per lot are rounded to paise
 * before they are multiplied) the exact rounding decides.
 */
const NEAR_LEVEL_INR = 0.02;
const COSTS_ROUNDING_PER_LOT_INR = 0.005;

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
  /** Exit symbol → its groups: the update loop touches only the symbols a quote recomputed. */
  private readonly bySymbol = new Map<string, Group[]>();
  private readonly groups = new Map<string, Group>();
  private readonly byId = new Map<number, Watch>();
  private writes: Promise<void> = Promise.resolve();
  private readonly costs: CostsPerLot;

  /** Each exit symbol's value when the previous leader stopped (store.spreadMarks), for the first value. */
  private readonly startMarks = new Map<string, number>();
  /** Each exit symbol's last value judged since the last save, saved every second for the next leader. */
  private readonly unsavedMarks = new Map<string, number>();
  private markSaver: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Pick<Store, "firings"> & Partial<Pick<Store, "spreadMarks">>,
    private readonly source: PositionAlertSource,
    private readonly options: PositionAlertsOptions,
  ) {
    this.costs = options.costs ?? builtInCostsPerLot;
  }

  /**
   * A term as leader starts from the stored positions and from the exit values the previous
   * leader last judged (saved as marks every second, as the alert engine saves its own): a level
   * crossed between its last value and this leader's first fires now, instead of being missed.
   */
  async start(): Promise<void> {
    const [positions, marks] = await Promise.all([
      this.source.listWatched(),
      this.store.spreadMarks?.list() ?? [],
    ]);
    this.byId.clear();
    this.groups.clear();
    this.bySymbol.clear();
    this.startMarks.clear();
    for (const mark of marks)
      if (mark.symbol.endsWith(POSITION_MARK)) {
        this.startMarks.set(mark.symbol.slice(0, -POSITION_MARK.length), mark.value);
      }
    this.replace(positions);
    if (this.store.spreadMarks) {
      this.markSaver = setInterval(() => this.queue(() => this.saveMarks()), MARK_SAVE_MS);
      this.markSaver.unref();
    }
  }

  /** Resolves when the writes already queued (the last marks among them) are done. */
  async stop(): Promise<void> {
    clearInterval(this.markSaver);
    this.queue(() => this.saveMarks());
    await this.writes;
  }

  private async saveMarks(): Promise<void> {
    if (!this.store.spreadMarks || this.unsavedMarks.size === 0) return;
    const at = Date.now();
    const marks = [...this.unsavedMarks].map(([symbol, value]) => ({
      symbol: `${symbol}${POSITION_MARK}`,
      value,
      at,
    }));
    this.unsavedMarks.clear();
    await this.store.spreadMarks.save(marks);
  }

  async idle(): Promise<void> {
    await this.writes;
  }

  /** A position of `userId` was opened, edited, closed or deleted (on any instance). */
  positionsChanged(userId: number): void {
    this.queue(async () => this.replace(await this.source.listWatched(userId), userId));
  }

  /**
   * Definitions were edited or removed (registry.ts): a changed formula or legs makes the last
   * values meaningless, so their exits' levels learn where net stands afresh from the next value
   * (the jump an edit makes is not a crossing). Any change counts; a rename costs nothing more.
   */
  spreadsChanged(change: Pick<SpreadChange, "changed" | "removed">): void {
    for (const spread of [...change.changed, ...change.removed]) {
      for (const symbol of [`${spread.symbol}_BUY`, `${spread.symbol}_SELL`]) {
        for (const group of this.bySymbol.get(symbol) ?? []) {
          group.last = undefined;
          group.disarmed.clear();
          group.noted.length = 0;
          for (const level of group.levels) {
            level.reached = undefined;
            level.armed = true;
            level.heldNoted = false;
          }
        }
      }
    }
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
   * A position already watched keeps where it stood when its levels and lots are the same; only
   * the groups a change touches are rebuilt.
   */
  private replace(positions: readonly WatchedPosition[], userId?: number): void {
    const touched = new Set<string>();
    const next = new Map<number, Watch>();
    for (const position of positions) {
      if (userId !== undefined && position.ownerId !== userId) continue;
      const watch = this.toWatch(position);
      if (watch) next.set(position.id, watch);
    }
    for (const [id, watch] of this.byId) {
      if (userId !== undefined && watch.position.ownerId !== userId) continue;
      // toWatch gives back the same watch when nothing it judges by changed: it stays as it is.
      if (next.get(id) === watch) {
        next.delete(id);
        continue;
      }
      this.byId.delete(id);
      touched.add(groupIdOf(watch));
    }
    for (const [id, watch] of next) {
      this.byId.set(id, watch);
      touched.add(groupIdOf(watch));
    }
    if (touched.size === 0) return;
    const members = new Map<string, Level[]>([...touched].map((id) => [id, []]));
    for (const watch of this.byId.values()) members.get(groupIdOf(watch))?.push(...watch.levels);
    for (const [id, levels] of members) this.rebuild(id, levels);
  }

  /** A group anew with `levels` (none: it goes), keeping its last value and what is disarmed. */
  private rebuild(id: string, levels: Level[]): void {
    const before = this.groups.get(id);
    const [symbol = "", sign = "1", units = "1", contracts = ""] = id.split("|");
    if (levels.length === 0) {
      this.groups.delete(id);
      const left = (this.bySymbol.get(symbol) ?? []).filter((g) => g.id !== id);
      if (left.length > 0) this.bySymbol.set(symbol, left);
      else this.bySymbol.delete(symbol);
      return;
    }
    levels.sort((a, b) => a.key - b.key);
    const group: Group = {
      id,
      sign: sign === "-1" ? -1 : 1,
      units: Number(units),
      levels,
      keys: Float64Array.from(levels, (l) => l.key),
      last: before?.last,
      disarmed: new Set(),
      noted: [],
      held: contracts === "" ? [] : contracts.split(",").map((pair) => pair.split("=")),
    };
    for (const level of levels) {
      // A new level in a group that already has a value learns where net stands now.
      if (level.reached === undefined && group.last) {
        level.reached = isReached(level, group.last.mark, group.last.costs);
        level.armed = !level.reached;
      }
      if (!level.armed) group.disarmed.add(level);
      if (level.heldNoted) group.noted.push(level);
    }
    this.groups.set(id, group);
    const list = (this.bySymbol.get(symbol) ?? []).filter((g) => g.id !== id);
    list.push(group);
    this.bySymbol.set(symbol, list);
  }

  private toWatch(position: WatchedPosition): Watch | undefined {
    if (!(position.lots > 0) || !(position.units > 0) || !Number.isFinite(position.entry))
      return undefined;
    const known = this.byId.get(position.id);
    if (known && sameJudgement(known.position, position)) return known;
    const sign = position.side === "BUY" ? 1 : -1;
    const watch: Watch = { position, symbol: exitSymbolOf(position), sign, levels: [] };
    const level = (kind: Kind, threshold: number | null) => {
      if (threshold === null || !Number.isFinite(threshold)) return;
      watch.levels.push({
        watch,
        kind,
        threshold,
        direction: kind === "target" ? "above" : "below",
        key: sign * position.entry + threshold / (position.units * position.lots),
        reached: undefined,
        armed: true,
        heldNoted: false,
      });
    };
    level("target", position.targetInr);
    level("stop", position.stopInr);
    return watch.levels.length > 0 ? watch : undefined;
  }

  /** Every accepted quote while this instance leads (after the alert engine saw it). */
  onUpdate(update: HubUpdate): void {
    let pending: Pending[] | undefined;
    const entries = update.calculations as unknown as Readonly<
      Record<string, LiveEntry | undefined>
    >;
    for (const symbol of update.symbols) {
      const groups = this.bySymbol.get(symbol);
      if (!groups) continue;
      const entry = entries[symbol];
      // No value (a leg missing, a crossed book): nothing to judge; the state stays.
      if (!entry || !Number.isFinite(entry.spread)) continue;
      // Once per touched symbol: the hub writes each quote's numbers into the same entry objects,
      // so there is nothing to key a cache on, and the symbol was listed because it moved.
      const costs = this.costs(symbol, entry, update.prices);
      if (costs === undefined) continue;
      const hold = this.options.legs.holdReason(symbol, update.prices);
      this.unsavedMarks.set(symbol, entry.spread);
      for (const group of groups) {
        const found = this.judge(
          group,
          entry.spread,
          costs,
          hold ?? movedReason(group, update),
          this.startMarks.get(symbol),
        );
        if (found) {
          pending ??= [];
          pending.push(...found);
        }
      }
      // Only this term's first value follows the previous leader's; a position opened later
      // learns where its net stands from its own first value.
      if (hold === undefined) this.startMarks.delete(symbol);
    }
    if (pending) {
      // The messages are worded in the queued write, off the quote's path (a storm can cross
      // hundreds of levels at once); what they say was fixed here.
      const found = pending;
      const at = update.quote.ts;
      this.queue(() => this.record(found.map((p) => this.toCrossing(p, at))));
    }
  }

  /** One group at a new value of its exit: the crossings it makes (fired or held), if any. */
  private judge(
    group: Group,
    mark: number,
    costs: number,
    hold: string | undefined,
    before?: number,
  ): Pending[] | undefined {
    const v = group.sign * mark - costs / group.units;
    // A new term's first value: where the previous leader last judged this exit stands as the
    // value before it, so a crossing between the two is judged like any other.
    if (!group.last && before !== undefined && group.levels.every((l) => l.reached === undefined))
      this.learn(group, before, costs);
    const last = group.last;
    if (!last) {
      if (hold === undefined) this.learn(group, mark, costs);
      return undefined;
    }
    let found: Pending[] | undefined;
    // Levels whose key lies between the last trusted v and this one, widened by a paisa or two
    // of net (the exact rounding decides there).
    const slack =
      1e-9 * (Math.abs(v) + 1) + (NEAR_LEVEL_INR + COSTS_ROUNDING_PER_LOT_INR) / group.units;
    const from = lowerBound(group.keys, Math.min(last.v, v) - slack);
    const to = lowerBound(group.keys, Math.max(last.v, v) + slack);
    if (hold !== undefined) {
      for (let i = from; i < to; i++) {
        const level = group.levels[i] as Level;
        if (level.reached !== false || !level.armed || level.heldNoted) continue;
        if (!isReached(level, mark, costs)) continue;
        level.heldNoted = true;
        group.noted.push(level);
        found ??= [];
        found.push({ level, mark, costs, state: "held", note: hold });
      }
      return found;
    }
    for (const level of group.noted) level.heldNoted = false;
    group.noted.length = 0;
    for (let i = from; i < to; i++) {
      const level = group.levels[i] as Level;
      const before = level.reached;
      const reached = isReached(level, mark, costs);
      level.reached = reached;
      if (before === false && reached && level.armed) {
        level.armed = false;
        group.disarmed.add(level);
        found ??= [];
        found.push({ level, mark, costs, state: "fired" });
      }
    }
    // After the crossings: the value that re-arms a level does not also fire it.
    for (const level of group.disarmed) {
      if (level.reached) continue;
      const net = roughNet(level.watch, mark, costs);
      if (levelRearmed(level.kind, level.threshold, net)) {
        level.armed = true;
        group.disarmed.delete(level);
      }
    }
    group.last = { mark, costs, v };
    return found;
  }

  /**
   * Records where each net stands at `mark` without firing; a level already reached waits to
   * come back past its re-arm distance, as after a firing.
   */
  private learn(group: Group, mark: number, costs: number): void {
    for (const level of group.levels) {
      level.reached = isReached(level, mark, costs);
      level.armed = !level.reached;
      if (!level.armed) group.disarmed.add(level);
    }
    group.last = { mark, costs, v: group.sign * mark - costs / group.units };
  }

  private toCrossing(p: Pending, at: number): PositionCrossing {
    const { position, symbol } = p.level.watch;
    const net = netInr(position, p.mark, p.costs);
    const name = this.options.nameOf?.(position.spread) ?? position.spread;
    const payload = positionFiringPayload({
      position,
      name,
      kind: p.level.kind,
      symbol,
      mark: p.mark,
      net,
      threshold: p.level.threshold,
      at,
    });
    return {
      userId: position.ownerId,
      symbol,
      value: net,
      threshold: p.level.threshold,
      direction: p.level.direction,
      state: p.state,
      note: p.state === "held" ? `${payload.sentence}. ${p.note}` : payload.sentence,
      at,
      now: Date.now(),
      text: payload.text,
      webhookBody: payload.webhookBody,
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

/**
 * The suffix of an exit symbol's mark in store.spreadMarks: the alert engine's keys are
 * `symbol|metric`, and this metric is none of theirs, so neither reads the other's.
 */
const POSITION_MARK = "|position-net";
const MARK_SAVE_MS = 1_000;

/** The group a position's levels go in: its exit symbol, side, units and the contracts held. */
function groupIdOf(watch: Watch): string {
  return `${watch.symbol}|${watch.sign}|${watch.position.units}|${heldContracts(watch.position)}`;
}

/** "GOLD=GOLD26DECFUT,GC=GCZ26": the contracts a position's legs entered on, where known. */
function heldContracts(position: WatchedPosition): string {
  return Object.values(position.legs ?? {})
    .flatMap((leg) => (leg.contract === undefined ? [] : [`${leg.instrument}=${leg.contract}`]))
    .join(",");
}

/** Why a group's value is another contract's: a leg's feed rolled past the one held. */
function movedReason(group: Group, update: HubUpdate): string | undefined {
  if (group.held.length === 0) return undefined;
  const contracts = update.prices.contracts;
  const legs = Object.fromEntries(
    group.held.map(([instrument = "", contract], i) => [String(i), { instrument, contract }]),
  );
  const moved = contractMoved(legs, (key) => contracts?.[key]?.contract);
  return moved && `Held: ${contractMoveText(moved)}`;
}

/** The first index whose key is ≥ `value`. */
function lowerBound(keys: Float64Array, value: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Net ₹ in plain floating point: within a paisa or two of a level, `netInr` decides. */
function roughNet(watch: Watch, mark: number, costs: number): number {
  const p = watch.position;
  return watch.sign * (mark - p.entry) * p.units * p.lots - costs * p.lots;
}

function isReached(level: Level, mark: number, costs: number): boolean {
  const rough = roughNet(level.watch, mark, costs);
  const near = NEAR_LEVEL_INR + COSTS_ROUNDING_PER_LOT_INR * level.watch.position.lots;
  const net =
    Math.abs(rough - level.threshold) < near ? netInr(level.watch.position, mark, costs) : rough;
  return levelReached(level.kind, level.threshold, net);
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
    a.stopInr === b.stopInr &&
    heldContracts(a) === heldContracts(b)
  );
}
