import { MAX_INSTRUMENTS } from "@spreadwatch/core";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import type { AppServices } from "../context.ts";
import { ErrorWithFields } from "../errors.ts";
import { instrumentInput, instrumentKey } from "../instruments/instrument-input.ts";
import {
  availableInstrument,
  type InstrumentView,
  instrumentView,
  viewOf,
} from "../instruments/instrument-view.ts";
import { isUsed, usedBy } from "../instruments/used-by.ts";
import { adminProcedure, authedProcedure } from "../trpc.ts";
import { success } from "./shared.ts";

const listReply = z.object({
  instruments: z.array(instrumentView),
  available: z.array(availableInstrument),
});

function liveState(services: AppServices) {
  return {
    contracts: services.hub.snapshot().prices.contracts,
    providers: services.health.feeds().providers,
  };
}

function view(services: AppServices, key: string): InstrumentView | undefined {
  const { instruments } = services;
  const spec = instruments.get(key);
  return spec && viewOf(spec, instruments.isBuiltIn(key), liveState(services));
}

/**
 * Admin → Instruments (docs/user-guide.md "Instruments"): what is quoted, and putting more in use.
 */
export const instrumentsRouter = {
  list: authedProcedure.output(listReply).query(({ ctx }) => {
    const { instruments } = ctx.services;
    const live = liveState(ctx.services);
    return {
      instruments: instruments
        .inUse()
        .map((spec) => viewOf(spec, instruments.isBuiltIn(spec.key), live)),
      available: instruments.available(),
    };
  }),

  add: adminProcedure
    .input(instrumentInput)
    .output(instrumentView)
    .mutation(async ({ ctx, input }) => {
      const { instruments, bus } = ctx.services;
      const result = await instruments.add(input, ctx.user.id);
      if (result === "exists")
        throw new TRPCError({ code: "CONFLICT", message: `${input.key} is already in use` });
      if (result === "full")
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: `At most ${MAX_INSTRUMENTS} instruments can be in use; remove one first`,
        });
      bus.publish("instruments.changed", { key: input.key });
      return view(ctx.services, input.key) as InstrumentView;
    }),

  /** Refused (409, with what uses it) for a built-in key or one an alert's spread reads. */
  remove: adminProcedure
    .input(z.strictObject({ key: instrumentKey }))
    .output(success)
    .mutation(async ({ ctx, input }) => {
      const { instruments, spreads, store, bus } = ctx.services;
      const notInUse = () =>
        new TRPCError({ code: "NOT_FOUND", message: `${input.key} is not in use` });
      if (!instruments.get(input.key)) throw notInUse();
      const { usedBy: used, sentence: message } = await usedBy(store, spreads, input.key);
      if (isUsed(used)) {
        throw new TRPCError({
          code: "CONFLICT",
          message,
          cause: new ErrorWithFields(message, { usedBy: used }),
        });
      }
      if (!(await instruments.remove(input.key))) throw notInUse();
      bus.publish("instruments.changed", { key: input.key });
      return { status: "success" as const };
    }),
} satisfies TRPCRouterRecord;
