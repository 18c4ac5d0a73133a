import { MAX_ALERTS_PER_USER } from "@spreadwatch/core";
import {
  countUserAlerts,
  createAlert,
  deleteAlert,
  listUserAlerts,
  recordBrowserTrigger,
  updateAlert,
} from "@spreadwatch/db";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import {
  createAlertInput,
  toAlertPatch,
  toNewAlert,
  updateAlertInput,
} from "../alerts/alert-input.ts";
import { toAlertView } from "../alerts/alert-view.ts";
import { once } from "../idempotency.ts";
import { alertsProcedure } from "../trpc.ts";

const byId = z.object({
  id: z.number({ error: "id must be a number" }).int().positive("id must be a positive integer"),
});

function notFound(): TRPCError {
  return new TRPCError({ code: "NOT_FOUND", message: "Alert not found" });
}

export const alertsRouter = {
  list: alertsProcedure.query(({ ctx }) => ({
    status: "success" as const,
    alerts: listUserAlerts(ctx.services.db, ctx.user.id).map(toAlertView),
  })),

  create: alertsProcedure.input(createAlertInput).mutation(({ ctx, input }) => {
    const { db, alertEngine } = ctx.services;
    const { idempotencyKey, ...request } = input;
    const call = {
      db,
      userId: ctx.user.id,
      operation: "alerts.create",
      key: idempotencyKey,
      request,
    };
    const { response, replayed } = once(call, () => {
      if (countUserAlerts(db, ctx.user.id) >= MAX_ALERTS_PER_USER) {
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: `You can have at most ${MAX_ALERTS_PER_USER} alerts. Delete one to add another.`,
        });
      }
      const alert = createAlert(db, ctx.user.id, toNewAlert(request), Date.now());
      return { status: "success" as const, alert: toAlertView(alert) };
    });
    if (!replayed) alertEngine.refreshUser(ctx.user.id);
    return response;
  }),

  update: alertsProcedure.input(updateAlertInput).mutation(({ ctx, input }) => {
    const { db, alertEngine } = ctx.services;
    const alert = updateAlert(db, ctx.user.id, input.id, toAlertPatch(input), Date.now());
    if (!alert) throw notFound();
    alertEngine.refreshUser(ctx.user.id);
    return { status: "success" as const, alert: toAlertView(alert) };
  }),

  delete: alertsProcedure.input(byId).mutation(({ ctx, input }) => {
    const { db, alertEngine } = ctx.services;
    if (!deleteAlert(db, ctx.user.id, input.id)) throw notFound();
    alertEngine.refreshUser(ctx.user.id);
    return { status: "success" as const };
  }),

  /** A browser fired the alert: counted for the browser only; Telegram is the server's job. */
  trigger: alertsProcedure.input(byId).mutation(({ ctx, input }) => {
    const alert = recordBrowserTrigger(ctx.services.db, ctx.user.id, input.id, Date.now());
    if (!alert) throw notFound();
    return { status: "success" as const, alert: toAlertView(alert) };
  }),
} satisfies TRPCRouterRecord;
