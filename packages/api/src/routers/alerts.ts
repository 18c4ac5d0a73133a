import { MAX_ALERTS_PER_USER } from "@spreadwatch/core";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import {
  alertSymbolProblem,
  createAlertInput,
  historyInput,
  metricMismatch,
  toAlertPatch,
  toNewAlert,
  triggerAlertInput,
  updateAlertInput,
} from "../alerts/alert-input.ts";
import { alertView, toAlertView } from "../alerts/alert-view.ts";
import { historyEntry, historyPage } from "../alerts/history-page.ts";
import type { AppServices } from "../context.ts";
import { keyedCall, once } from "../idempotency.ts";
import { alertsProcedure, announcesAlertsChanged } from "../trpc.ts";
import { byId, notFound, success } from "./shared.ts";

const alertList = success.extend({ alerts: z.array(alertView) });
const alertReply = success.extend({ alert: alertView });
const historyReply = z.object({ entries: z.array(historyEntry) });

/** Answers with the alert as stored. */
const answersAlert = alertsProcedure.output(alertReply);
/** Changes the user's alerts, and answers with the alert as stored. */
const changesAlert = answersAlert.use(announcesAlertsChanged());

/** A symbol the user cannot see (unknown, or another user's private spread) is a 400. */
function refuseUnseenSymbol(
  ctx: { services: AppServices; user: { id: number; isAdmin: boolean } },
  symbol: string,
): void {
  const why = alertSymbolProblem(ctx.services.spreads, ctx.user, symbol);
  if (why) throw new TRPCError({ code: "BAD_REQUEST", message: why });
}

export const alertsRouter = {
  list: alertsProcedure.output(alertList).query(async ({ ctx }) => ({
    status: "success" as const,
    alerts: (await ctx.services.store.alerts.listByUser(ctx.user.id)).map(toAlertView),
  })),

  create: changesAlert.input(createAlertInput).mutation(async ({ ctx, input }) => {
    const { store } = ctx.services;
    const call = keyedCall(store, ctx.user.id, "alerts.create", input);
    const { request } = call;
    refuseUnseenSymbol(ctx, request.commodityType);
    const { response } = await once(call, async (tx) => {
      const settings = toNewAlert(request);
      const alert = await tx.alerts.create(ctx.user.id, settings, Date.now(), MAX_ALERTS_PER_USER);
      if (!alert) {
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: `You can have at most ${MAX_ALERTS_PER_USER} alerts. Delete one to add another.`,
        });
      }
      return { status: "success" as const, alert: toAlertView(alert) };
    });
    return response;
  }),

  update: changesAlert.input(updateAlertInput).mutation(async ({ ctx, input }) => {
    const { store } = ctx.services;
    const patch = toAlertPatch(input);
    if (patch.commodityType !== undefined) refuseUnseenSymbol(ctx, patch.commodityType);
    const current = await store.alerts.find(ctx.user.id, input.id);
    if (!current) throw notFound("Alert");
    // The alert as it would be stored: changing only the metric must still fit the threshold.
    const why = metricMismatch(
      patch.metric ?? current.metric,
      patch.threshold ?? current.threshold,
      patch.hysteresis === undefined ? current.hysteresis : patch.hysteresis,
    );
    if (why) throw new TRPCError({ code: "BAD_REQUEST", message: why });
    const alert = await store.alerts.update(ctx.user.id, input.id, patch, Date.now());
    if (!alert) throw notFound("Alert");
    return { status: "success" as const, alert: toAlertView(alert) };
  }),

  delete: alertsProcedure
    .use(announcesAlertsChanged())
    .input(byId)
    .output(success)
    .mutation(async ({ ctx, input }) => {
      const { store } = ctx.services;
      if (!(await store.alerts.delete(ctx.user.id, input.id))) throw notFound("Alert");
      return { status: "success" as const };
    }),

  /**
   * A browser fired the alert: counted for the browser only; Telegram is the server's job. With
   * the value it fired on, also a "browser" History entry (timed by the server's clock).
   */
  trigger: answersAlert.input(triggerAlertInput).mutation(async ({ ctx, input }) => {
    const { store } = ctx.services;
    const { id, value, metric, direction } = input;
    const firing =
      value !== undefined && metric !== undefined && direction !== undefined
        ? { value, metric, direction }
        : undefined;
    const alert = await store.alerts.recordBrowserTrigger(ctx.user.id, id, Date.now(), firing);
    if (!alert) throw notFound("Alert");
    return { status: "success" as const, alert: toAlertView(alert) };
  }),

  /**
   * The History (docs/http-api.md, "Alert history and webhooks"): the user's own firings and held
   * crossings, newest first.
   */
  history: alertsProcedure
    .input(historyInput)
    .output(historyReply)
    .query(async ({ ctx, input }) => ({
      entries: await historyPage(ctx.services.store, ctx.user.id, input.limit, input.before),
    })),
} satisfies TRPCRouterRecord;
