import {
  type CheckedDefinition,
  checkDefinition,
  FormulaError,
  MAX_INSTRUMENTS,
  MAX_SPREADS,
  MAX_SPREADS_PER_USER,
  type SpreadDefinition,
  type SpreadDefinitionInput,
  shippedInstrument,
  userSpreadSymbol,
} from "@spreadwatch/core";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import type { AppServices } from "../context.ts";
import { ErrorWithFields } from "../errors.ts";
import { keyedCall, once, refuseReusedKey } from "../idempotency.ts";
import { alertSymbolsOf } from "../instruments/used-by.ts";
import type { SpreadViewer } from "../spreads/registry.ts";
import {
  createSpreadInput,
  removeSpreadInput,
  type SpreadView,
  savedSpreadView,
  spreadId,
  spreadView,
  updateSpreadInput,
} from "../spreads/spread-input.ts";
import { legInstrumentKnown } from "../spreads/stored.ts";
import { authedProcedure } from "../trpc.ts";
import { success } from "./shared.ts";

/** Who may change a definition: nobody a built-in, admins a shared one, its owner a private one. */
function editable(spread: SpreadDefinition, viewer: Required<SpreadViewer>): boolean {
  if (spread.builtin) return false;
  return spread.shared ? viewer.isAdmin : spread.ownerId === viewer.id;
}

function viewOf(spread: SpreadDefinition, viewer: Required<SpreadViewer>): SpreadView {
  return {
    id: spread.id,
    symbol: spread.symbol,
    name: spread.name,
    legs: spread.legs.map((leg) => ({ ...leg })),
    formula: spread.formula,
    shared: spread.shared,
    builtin: spread.builtin,
    editable: editable(spread, viewer),
  };
}

const notFound = () => new TRPCError({ code: "NOT_FOUND", message: "Spread not found" });

/** The definition with `id` as the viewer may see it; another user's private one does not exist. */
function visible(services: AppServices, viewer: SpreadViewer, id: number) {
  const spread = services.spreads.all().find((s) => s.id === id);
  if (!spread || !services.spreads.canSee(viewer, spread.symbol)) throw notFound();
  return spread;
}

/** The definition with `id` if the viewer may change it: 404 unseen, 403 built-in or shared. */
function changeable(services: AppServices, viewer: Required<SpreadViewer>, id: number) {
  const spread = visible(services, viewer, id);
  if (spread.builtin)
    throw new TRPCError({ code: "FORBIDDEN", message: "A built-in spread cannot be changed" });
  if (!editable(spread, viewer))
    throw new TRPCError({
      code: "FORBIDDEN",
      message: "Only an administrator can change a shared spread",
    });
  return spread;
}

function refuseSharing(shared: boolean | undefined, viewer: Required<SpreadViewer>) {
  if (shared && !viewer.isAdmin)
    throw new TRPCError({
      code: "FORBIDDEN",
      message: "Only an administrator can share a spread with every user",
    });
}

/**
 * core's checks, as a 400 that names the field ("legs.1.instrument: …") or the formula's
 * position ("formula: unknown name `gm2` at 9", with `position`).
 */
function checked(
  services: AppServices,
  input: {
    name: string;
    legs: readonly { name: string; instrument: string; lots?: number | undefined }[];
    formula: string;
  },
): CheckedDefinition {
  try {
    return checkDefinition(input, legInstrumentKnown(services.instruments));
  } catch (error) {
    if (!(error instanceof FormulaError)) throw error;
    const field = /^(name|legs)\b/.test(error.message);
    const message = field ? error.message : `formula: ${error.message}`;
    throw new TRPCError({
      code: "BAD_REQUEST",
      message,
      cause: new ErrorWithFields(
        message,
        error.position === undefined ? {} : { position: error.position },
      ),
    });
  }
}

function fullError(limit: "owner" | "total"): TRPCError {
  return new TRPCError({
    code: "BAD_REQUEST",
    message:
      limit === "owner"
        ? `You can have at most ${MAX_SPREADS_PER_USER} spreads. Delete one to add another.`
        : `At most ${MAX_SPREADS} spreads can be defined in all; delete one first`,
  });
}

/**
 * Puts the shipped instruments a definition's legs name in use (as an admin's add would), so a
 * new calendar quotes at once. Before the definition is stored: a leg must never name an
 * instrument nobody quotes. An instrument put in use for a definition that then hits its limit
 * stays in use; that is harmless, and an admin can take it out.
 */
export async function putLegsInUse(
  services: AppServices,
  definition: CheckedDefinition,
  by: number,
) {
  const { instruments, bus } = services;
  for (const { instrument } of definition.legs) {
    if (instruments.get(instrument)) continue;
    const spec = shippedInstrument(instrument);
    if (!spec) continue;
    const result = await instruments.add(spec, by);
    if (result === "full")
      throw new TRPCError({
        code: "BAD_REQUEST",
        message: `${instrument} cannot be put in use: at most ${MAX_INSTRUMENTS} instruments can be in use`,
      });
    if (result === "added") bus.publish("instruments.changed", { key: instrument });
  }
}

const fieldsOf = (definition: CheckedDefinition, shared: boolean) => ({
  name: definition.name,
  legs: definition.legs.map((leg) => ({
    name: leg.name,
    instrument: leg.instrument,
    ...(leg.lots !== undefined && { lots: leg.lots }),
  })),
  formula: definition.formula,
  shared,
});

/** Every instance reloads; this one first, so the answer and the next GET agree. */
async function announce(services: AppServices, id: number) {
  await services.spreads.reload();
  services.bus.publish("spreads.changed", { id });
}

const viewer = (user: { id: number; isAdmin: boolean }) => ({ id: user.id, isAdmin: user.isAdmin });

/**
 * docs/http-api.md "Spreads API": users' formula spreads next to the built-ins (docs/formulas.md).
 */
export const spreadsRouter = {
  list: authedProcedure.output(z.object({ spreads: z.array(spreadView) })).query(({ ctx }) => {
    const who = viewer(ctx.user);
    return { spreads: ctx.services.spreads.visibleTo(who).map((s) => viewOf(s, who)) };
  }),

  get: authedProcedure
    .input(z.strictObject({ id: spreadId }))
    .output(spreadView)
    .query(({ ctx, input }) => {
      const who = viewer(ctx.user);
      return viewOf(visible(ctx.services, who, input.id), who);
    }),

  create: authedProcedure
    .input(createSpreadInput)
    .output(savedSpreadView)
    .mutation(async ({ ctx, input }) => {
      const { services } = ctx;
      const who = viewer(ctx.user);
      const call = keyedCall(services.store, who.id, "spreads.create", input);
      const { request } = call;
      await refuseReusedKey(call);
      refuseSharing(request.shared, who);
      const definition = checked(services, request);
      // A clear answer before anything is put in use; the store checks again, atomically.
      if ((await services.store.spreads.countByOwner(who.id)) >= MAX_SPREADS_PER_USER)
        throw fullError("owner");
      await putLegsInUse(services, definition, who.id);
      const { response } = await once(call, async (tx) => {
        const fields = fieldsOf(definition, request.shared ?? false);
        const result = await tx.spreads.create(who.id, fields, Date.now(), {
          perOwner: MAX_SPREADS_PER_USER,
          total: MAX_SPREADS,
        });
        if (result.kind === "full") throw fullError(result.limit);
        const { id } = result.spread;
        return { id, symbol: userSpreadSymbol(id), ...fields };
      });
      await announce(services, response.id);
      return response;
    }),

  /**
   * Keeps the alerts on it, and says how many (`alertsKept`). A new formula or legs are refused
   * (409 with `positions`) while anyone has an open position on it: their entries were taken on
   * the old one, and a mark on another would be a number of nobody's trade.
   */
  update: authedProcedure
    .input(updateSpreadInput)
    .output(savedSpreadView.extend({ alertsKept: z.number() }))
    .mutation(async ({ ctx, input }) => {
      const { services } = ctx;
      const who = viewer(ctx.user);
      const current = changeable(services, who, input.id);
      refuseSharing(input.shared, who);
      const definition = checked(services, input);
      if (repriced(current, definition))
        await refuseWhileOpen(services, current.symbol, "changing");
      await putLegsInUse(services, definition, who.id);
      const fields = fieldsOf(definition, input.shared ?? current.shared);
      const saved = await services.store.spreads.update(input.id, fields, Date.now());
      if (!saved) throw notFound();
      const alertsKept = await services.store.alerts.countOnSymbols(alertSymbolsOf(current));
      await announce(services, input.id);
      return { id: saved.id, symbol: userSpreadSymbol(saved.id), ...fields, alertsKept };
    }),

  /**
   * Asks first (409 with `alerts`) when alerts use it; `confirm` deletes them with it. Refused
   * (409 with `positions`) while anyone has an open position on it.
   */
  remove: authedProcedure
    .input(removeSpreadInput)
    .output(success)
    .mutation(async ({ ctx, input }) => {
      const { services } = ctx;
      const spread = changeable(services, viewer(ctx.user), input.id);
      const symbols = alertSymbolsOf(spread);
      // Positions are a trader's record of money at stake: never deleted with the spread, not
      // even with `confirm` (docs/http-api.md "Positions API (paper)").
      await refuseWhileOpen(services, spread.symbol, "deleting");
      if (!input.confirm) {
        const alerts = await services.store.alerts.countOnSymbols(symbols);
        if (alerts > 0) {
          const message = `${alerts} alert${alerts === 1 ? " uses" : "s use"} this spread; delete it with ${alerts === 1 ? "its alert" : "its alerts"}?`;
          throw new TRPCError({
            code: "CONFLICT",
            message,
            cause: new ErrorWithFields(message, { alerts }),
          });
        }
      }
      const { deleted, alertOwners } = await services.store.spreads.delete(input.id, symbols);
      if (!deleted) throw notFound();
      for (const userId of alertOwners) services.bus.publish("alerts.changed", { userId });
      await announce(services, input.id);
      return { status: "success" as const };
    }),
} satisfies TRPCRouterRecord;

/** Whether an edit changes what the spread's value is: its formula or any leg. */
function repriced(current: SpreadDefinitionInput, next: SpreadDefinitionInput): boolean {
  const legs = (d: SpreadDefinitionInput) =>
    JSON.stringify(d.legs.map((l) => [l.name, l.instrument, l.lots ?? null]));
  return current.formula !== next.formula || legs(current) !== legs(next);
}

/** 409 with `positions` while any user has an open position on `symbol`. */
async function refuseWhileOpen(
  services: AppServices,
  symbol: string,
  doing: "changing" | "deleting",
): Promise<void> {
  const positions = await services.store.positions.countOpenOn(symbol);
  if (positions === 0) return;
  const what = doing === "deleting" ? "deleting the spread" : "changing its formula or legs";
  const message = `${positions} open position${positions === 1 ? " is" : "s are"} on this spread; close ${positions === 1 ? "it" : "them"} before ${what}`;
  throw new TRPCError({
    code: "CONFLICT",
    message,
    cause: new ErrorWithFields(message, { positions }),
  });
}
