import { EventEmitter, on } from "node:events";
import {
  executableSymbol,
  exitSideOf,
  MAX_SPREADS,
  MAX_SPREADS_PER_USER,
  userSpreadSymbol,
} from "@spreadwatch/core";
import type { PositionFields, Store } from "@spreadwatch/db";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import type { AppServices } from "../context.ts";
import { once } from "../idempotency.ts";
import { closedSummary, closedTradesCsv } from "../positions/closed-trades.ts";
import {
  closePositionInput,
  listPositionsInput,
  type OpenPositionInput,
  openPositionInput,
  patchPositionInput,
  positionIdInput,
  rollPositionInput,
} from "../positions/position-input.ts";
import { rollEntry, rollTarget } from "../positions/roll.ts";
import { entryPrices, PositionError, positionNotFound } from "../positions/service.ts";
import { ErrorWithFields } from "../rest/errors.ts";
import { legInstrumentKnown } from "../spreads/stored.ts";
import { authedProcedure } from "../trpc.ts";
import { putLegsInUse } from "./spreads.ts";

const CODES = { not_found: "NOT_FOUND", conflict: "CONFLICT", bad_request: "BAD_REQUEST" } as const;

/** The service's refusals as tRPC errors (REST: 404, 409, 400 with the same sentence). */
async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof PositionError)) throw error;
    throw new TRPCError({
      code: CODES[error.kind],
      message: error.message,
      cause: new ErrorWithFields(error.message, error.fields),
    });
  }
}

const viewer = (user: { id: number; isAdmin: boolean }) => ({ id: user.id, isAdmin: user.isAdmin });

/** What opening stores: the entry live, typed, or the formula at the typed leg prices. */
function fieldsToOpen(
  services: AppServices,
  who: { id: number; isAdmin: boolean },
  input: Omit<OpenPositionInput, "idempotencyKey">,
): PositionFields {
  const positions = services.positions;
  const spread = positions.tradable(who, input.spread);
  let entry: number;
  let legPrices: Record<string, number> = {};
  if (input.legs !== undefined) {
    const names = spread.legs.map((leg) => leg.name);
    const unknown = Object.keys(input.legs).find((name) => !names.includes(name));
    if (unknown !== undefined)
      throw new PositionError("bad_request", `legs: ${spread.symbol} has no leg "${unknown}"`);
    const missing = names.find((name) => input.legs?.[name] === undefined);
    if (missing !== undefined)
      throw new PositionError("bad_request", `legs: the price of leg "${missing}" is missing`);
    legPrices = input.legs;
    const compiled = spread.checked?.compiled;
    const value = compiled?.evaluate(compiled.legs.map((name) => legPrices[name] as number));
    if (value === undefined || !Number.isFinite(value))
      throw new PositionError("bad_request", "legs: the formula has no value at these prices");
    entry = value;
  } else if (input.entry !== undefined) {
    entry = input.entry;
    legPrices = positions.side(spread, input.side).live?.legs ?? {};
  } else {
    const live = positions.liveOrRefuse(spread, input.side);
    entry = live.value;
    legPrices = live.legs;
  }
  const now = Date.now();
  if (input.openedAt !== undefined && input.openedAt > now + 60_000)
    throw new PositionError("bad_request", "openedAt must not be in the future");
  return {
    spread: spread.symbol,
    side: input.side,
    lots: input.lots,
    entry,
    units: input.units ?? positions.unitsOf(spread),
    legs: positions.legsAt(spread, legPrices),
    note: input.note ?? "",
    targetInr: input.targetInr ?? null,
    stopInr: input.stopInr ?? null,
    openedAt: input.openedAt ?? now,
  };
}

async function ownOpen(store: Store, ownerId: number, id: number) {
  const position = await store.positions.find(ownerId, id);
  if (!position) throw positionNotFound();
  if (position.status !== "open")
    throw new PositionError("conflict", "This position is closed already");
  return position;
}

const tooMany = (open: number) =>
  new PositionError(
    open === 0 ? "conflict" : "bad_request",
    open === 0
      ? "This position is closed already"
      : `Only ${open} lot${open === 1 ? " is" : "s are"} open`,
  );

/** README "Positions (paper)": the trader's own record of a spread trade; no order is sent. */
export const positionsRouter = {
  /** Open positions (default) or closed ones with their closes, valued now. */
  list: authedProcedure.input(listPositionsInput).query(async ({ ctx, input }) => ({
    positions: await ctx.services.positions.list(ctx.user.id, input?.status ?? "open"),
  })),

  get: authedProcedure
    .input(positionIdInput)
    .query(({ ctx, input }) => guard(() => ctx.services.positions.get(ctx.user.id, input.id))),

  open: authedProcedure.input(openPositionInput).mutation(({ ctx, input }) =>
    guard(async () => {
      const { services } = ctx;
      const who = viewer(ctx.user);
      const { idempotencyKey, ...request } = input;
      const call = {
        store: services.store,
        userId: who.id,
        operation: "positions.open",
        key: idempotencyKey,
        request,
      };
      const { response } = await once(call, async (tx) => {
        const position = await tx.positions.create(who.id, fieldsToOpen(services, who, request));
        return { id: position.id };
      });
      services.positions.announce(who.id);
      return services.positions.get(who.id, response.id);
    }),
  ),

  /** Note, target and stop; null clears a target or stop. */
  patch: authedProcedure.input(patchPositionInput).mutation(({ ctx, input }) =>
    guard(async () => {
      const { services } = ctx;
      const { id, ...patch } = input;
      const current = await services.store.positions.find(ctx.user.id, id);
      if (!current) throw positionNotFound();
      const targetInr = patch.targetInr === undefined ? current.targetInr : patch.targetInr;
      const stopInr = patch.stopInr === undefined ? current.stopInr : patch.stopInr;
      if (targetInr !== null && stopInr !== null && targetInr <= stopInr)
        throw new PositionError("bad_request", "targetInr must be above stopInr");
      const saved = await services.store.positions.update(ctx.user.id, id, patch);
      if (!saved) throw positionNotFound();
      services.positions.announce(ctx.user.id);
      return services.positions.get(ctx.user.id, id);
    }),
  ),

  /** Removes a position opened by mistake, with its closes. */
  remove: authedProcedure.input(positionIdInput).mutation(({ ctx, input }) =>
    guard(async () => {
      if (!(await ctx.services.store.positions.delete(ctx.user.id, input.id)))
        throw positionNotFound();
      ctx.services.positions.announce(ctx.user.id);
      return { status: "success" as const };
    }),
  ),

  /** Some (`lots`) or all lots, at the live exit or a typed `price`: what it realised. */
  close: authedProcedure.input(closePositionInput).mutation(({ ctx, input }) =>
    guard(async () => {
      const { services } = ctx;
      const ownerId = ctx.user.id;
      const { idempotencyKey, ...request } = input;
      const call = {
        store: services.store,
        userId: ownerId,
        operation: "positions.close",
        key: idempotencyKey,
        request,
      };
      const { response } = await once(call, async (tx) => {
        const position = await ownOpen(tx, ownerId, input.id);
        const spread = services.spreads.bySymbolName(position.spread);
        const exitSide = exitSideOf(position.side);
        let exit: number;
        let exitLegs: Record<string, number>;
        if (input.price !== undefined) {
          exit = input.price;
          exitLegs = (spread && services.positions.side(spread, exitSide).live?.legs) ?? {};
        } else {
          if (!spread)
            throw new PositionError(
              "conflict",
              `No live value for ${executableSymbol(position.spread, exitSide)}; type the price instead`,
            );
          const live = services.positions.liveOrRefuse(spread, exitSide);
          exit = live.value;
          exitLegs = live.legs;
        }
        const result = await tx.positions.close(
          ownerId,
          input.id,
          { lots: input.lots, exit, closedAt: Date.now(), reason: "close" },
          services.positions.realiser(spread, exitLegs),
        );
        if (result.kind === "not_found") throw positionNotFound();
        if (result.kind === "too_many") throw tooMany(result.open);
        const { lots, realisedInr } = result.close;
        return { closed: { lots, exit, realisedInr }, open: result.position.status === "open" };
      });
      services.positions.announce(ownerId);
      const position = response.open ? await services.positions.get(ownerId, input.id) : null;
      return { closed: response.closed, position };
    }),
  ),

  /**
   * Closes every open lot and opens the same spread one contract later, linked in one
   * campaign, in one transaction; a private "<name> → next" definition is made when the user
   * sees none with those legs.
   */
  roll: authedProcedure.input(rollPositionInput).mutation(({ ctx, input }) =>
    guard(async () => {
      const { services } = ctx;
      const who = viewer(ctx.user);
      const { idempotencyKey, ...request } = input;
      const call = {
        store: services.store,
        userId: who.id,
        operation: "positions.roll",
        key: idempotencyKey,
        request,
      };
      // Read and put the next legs in use before the transaction: putting an instrument in use
      // writes through the shared store, which an idempotent create's transaction holds.
      const before = await ownOpen(services.store, who.id, input.id);
      const spread = services.spreads.bySymbolName(before.spread);
      if (!spread?.checked)
        throw new PositionError(
          "conflict",
          `Spread ${before.spread} is gone; close the position instead`,
        );
      const exitSide = exitSideOf(before.side);
      const target = rollTarget(
        spread,
        who,
        services.spreads,
        services.positions.specOf,
        legInstrumentKnown(services.instruments),
      );
      if (!target.existing) await putLegsInUse(services, target.definition, who.id);
      let created: number | undefined;
      const { response } = await once(call, async (tx) => {
        const position = await ownOpen(tx, who.id, input.id);
        const live =
          input.exit === undefined ? services.positions.liveOrRefuse(spread, exitSide) : undefined;
        const exit = input.exit ?? (live?.value as number);
        const exitLegs = live?.legs ?? services.positions.side(spread, exitSide).live?.legs ?? {};
        const next =
          input.entry === undefined
            ? rollEntry(services.hub, target.definition, position.side, Date.now())
            : { value: input.entry, legs: {} as Record<string, number> };
        let symbol = target.existing?.symbol;
        if (symbol === undefined) {
          const fields = {
            name: target.definition.name,
            legs: target.definition.legs.map((leg) => ({
              name: leg.name,
              instrument: leg.instrument,
              ...(leg.lots !== undefined && { lots: leg.lots }),
            })),
            formula: target.definition.formula,
            shared: false,
          };
          const result = await tx.spreads.create(who.id, fields, Date.now(), {
            perOwner: MAX_SPREADS_PER_USER,
            total: MAX_SPREADS,
          });
          if (result.kind === "full")
            throw new PositionError(
              "bad_request",
              "The next contract's spread cannot be saved: you have as many spreads as allowed. Delete one to roll.",
            );
          created = result.spread.id;
          symbol = userSpreadSymbol(result.spread.id);
        }
        const newSymbol = symbol;
        const legs = Object.fromEntries(
          target.definition.legs.flatMap((leg) => {
            const price = next.legs[leg.name];
            return price === undefined ? [] : [[leg.name, { instrument: leg.instrument, price }]];
          }),
        );
        const now = Date.now();
        const result = await tx.positions.roll(
          who.id,
          input.id,
          { exit, closedAt: now },
          services.positions.realiser(spread, { ...entryPrices(position), ...exitLegs }),
          (before) => ({
            spread: newSymbol,
            side: before.side,
            lots: before.lots,
            entry: next.value,
            units: before.units,
            legs,
            note: before.note,
            targetInr: before.targetInr,
            stopInr: before.stopInr,
            openedAt: now,
          }),
        );
        if (result.kind === "not_found") throw positionNotFound();
        if (result.kind === "too_many") throw tooMany(result.open);
        const { lots, realisedInr } = result.close;
        return { closed: { lots, exit, realisedInr }, id: result.position.id };
      });
      if (created !== undefined) {
        await services.spreads.reload();
        services.bus.publish("spreads.changed", { id: created });
      }
      services.positions.announce(who.id);
      return {
        closed: response.closed,
        position: await services.positions.get(who.id, response.id),
      };
    }),
  ),

  /** Every close as one CSV line (₹ to paise, times in UTC ISO-8601). */
  closedCsv: authedProcedure.query(async ({ ctx }) => {
    const { store, spreads } = ctx.services;
    const ownerId = ctx.user.id;
    const [open, closed, closes] = await Promise.all([
      store.positions.list(ownerId, "open"),
      store.positions.list(ownerId, "closed"),
      store.positions.closes(ownerId),
    ]);
    return closedTradesCsv(
      closes,
      [...open, ...closed],
      (symbol) => spreads.bySymbolName(symbol)?.name ?? symbol,
    );
  }),

  /** Net total, win rate, average holding time, best and worst over every close. */
  summary: authedProcedure.query(async ({ ctx }) => {
    const { store } = ctx.services;
    const ownerId = ctx.user.id;
    const [open, closed, closes] = await Promise.all([
      store.positions.list(ownerId, "open"),
      store.positions.list(ownerId, "closed"),
      store.positions.closes(ownerId),
    ]);
    return closedSummary(closes, [...open, ...closed]);
  }),

  /**
   * One message on connecting and whenever the caller's positions change on any instance (bus
   * "positions.changed"), so an open Positions tab refetches. Carries no position data.
   */
  onChange: authedProcedure.subscription(async function* ({ ctx, signal }) {
    const { positions, shutdownSignal } = ctx.services;
    const stop = AbortSignal.any([shutdownSignal, ...(signal ? [signal] : [])]);
    const changes = new EventEmitter();
    const userId = ctx.user.id;
    const unsubscribe = positions.onChange((id) => id === userId && changes.emit("change"));
    try {
      // One at once: a (re)connected tab refetches whatever changed while it was away.
      yield { at: Date.now() };
      for await (const _ of on(changes, "change", { signal: stop })) yield { at: Date.now() };
    } catch (error) {
      if (!stop.aborted) throw error;
    } finally {
      unsubscribe();
    }
  }),
} satisfies TRPCRouterRecord;
