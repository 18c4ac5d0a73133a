import { EventEmitter, on } from "node:events";
import { spreadDecimals } from "@spreadwatch/core";
import type { TRPCRouterRecord } from "@trpc/server";
import { keyedCall, once, refuseReusedKey } from "../idempotency.ts";
import { closeIn } from "../positions/close.ts";
import { closedSummary, closedTradesCsv, definitionDecimals } from "../positions/closed-trades.ts";
import { fieldsToOpen } from "../positions/open.ts";
import { ownOpen, PositionError, positionNotFound } from "../positions/position-error.ts";
import {
  closePositionInput,
  listPositionsInput,
  MAX_OPEN_POSITIONS,
  openPositionInput,
  patchPositionInput,
  positionIdInput,
  previewPositionInput,
  rollPositionInput,
} from "../positions/position-input.ts";
import { rollIn, rollTarget } from "../positions/roll.ts";
import { legInstrumentKnown } from "../spreads/stored.ts";
import { authedProcedure } from "../trpc.ts";
import { withRefusals } from "./shared.ts";
import { putLegsInUse } from "./spreads.ts";

const guard = withRefusals;

const viewer = (user: { id: number; isAdmin: boolean }) => ({ id: user.id, isAdmin: user.isAdmin });

/**
 * docs/http-api.md "Positions API (paper)": the trader's own record of a spread trade; no order is
 * sent.
 */
export const positionsRouter = {
  /** Open positions (default) or closed ones with their closes, valued now. */
  list: authedProcedure.input(listPositionsInput).query(async ({ ctx, input }) => ({
    positions: await ctx.services.positions.list(ctx.user.id, input?.status ?? "open"),
  })),

  /** Margin and costs of a position not yet opened (the Open form shows them before Open). */
  preview: authedProcedure
    .input(previewPositionInput)
    .query(({ ctx, input }) =>
      guard(() => ctx.services.positions.preview(viewer(ctx.user), input)),
    ),

  get: authedProcedure
    .input(positionIdInput)
    .query(({ ctx, input }) => guard(() => ctx.services.positions.get(ctx.user.id, input.id))),

  open: authedProcedure.input(openPositionInput).mutation(({ ctx, input }) =>
    guard(async () => {
      const { services } = ctx;
      const who = viewer(ctx.user);
      const call = keyedCall(services.store, who.id, "positions.open", input);
      const { response } = await once(call, async (tx) => {
        const fields = fieldsToOpen(services, who, call.request);
        const position = await tx.positions.open(who.id, fields, MAX_OPEN_POSITIONS);
        if (!position)
          throw new PositionError(
            "bad_request",
            `You can have at most ${MAX_OPEN_POSITIONS} open positions; close one to open another`,
          );
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
      const call = keyedCall(services.store, ownerId, "positions.close", input);
      const { response } = await once(call, (tx) => closeIn(tx, services, ownerId, input));
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
      const call = keyedCall(services.store, who.id, "positions.roll", input);
      await refuseReusedKey(call);
      // Read and put the next legs in use before the transaction: putting an instrument in use
      // writes through the shared store, which an idempotent create's transaction holds.
      const plan = async () => {
        const before = await ownOpen(services.store, who.id, input.id);
        const spread = services.spreads.bySymbolName(before.spread);
        if (!spread?.checked)
          throw new PositionError(
            "conflict",
            `Spread ${before.spread} is gone; close the position instead`,
          );
        const prices = services.hub.snapshot().prices;
        const target = rollTarget(
          spread,
          who,
          services.spreads,
          services.positions.specOf,
          legInstrumentKnown(services.instruments),
          { legs: before.legs, contractNow: (key) => prices.contracts?.[key]?.contract },
        );
        if (!target.existing) await putLegsInUse(services, target.definition, who.id);
        return { spread, target };
      };
      // A retry of a roll that happened (its answer lost to a crash, or a resubmit) finds the
      // position closed: with its key it gets the stored answer, so the refusal waits for `once`.
      const planned = await plan().catch((error: unknown) => {
        if (call.key === undefined || !(error instanceof PositionError)) throw error;
        return error;
      });
      const { response } = await once(call, async (tx) => {
        if (planned instanceof PositionError) throw planned;
        return rollIn(tx, services, who.id, input, planned);
      });
      const { created } = response;
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

  /** Every close as one CSV line (the spread's decimals, ₹ to paise, times in UTC and IST). */
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
      (symbol, values) =>
        spreads.bySymbolName(symbol)?.builtin ? spreadDecimals(symbol) : definitionDecimals(values),
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
