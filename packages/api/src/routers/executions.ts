import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import type { AppServices } from "../context.ts";
import { campaignView, cancelKey } from "../executions/engine.ts";
import { KiteLinks } from "../executions/kite-link.ts";
import { LiveOrders } from "../executions/live-orders.ts";
import {
  buildCampaign,
  ExecutionRefusal,
  ticketCostsInr,
  ticketLegs,
  ticketRequests,
} from "../executions/ticket.ts";
import { ticketMargin } from "../executions/ticket-margin.ts";
import { KiteLoginStates } from "../feeds/providers/kite/login-states.ts";
import { exchangeRequestToken, KiteLoginError } from "../feeds/providers/kite/session.ts";
import { idempotencyKeySchema, keyedCall, once } from "../idempotency.ts";
import { PositionError } from "../positions/position-error.ts";
import { adminProcedure, authedProcedure } from "../trpc.ts";
import { noInput, withRefusals } from "./shared.ts";

const guard = withRefusals;

const whole = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

/** The guard's settings when the ticket leaves them out (docs/user-guide.md "Live orders"). */
const GUARD_DEFAULTS = { hedgeTimeoutMs: 5_000, adverseTicks: 10 } as const;

export const createExecutionInput = z.strictObject({
  spread: z.string({ error: "spread is required" }).trim().min(1, "spread is required").max(64),
  side: z.enum(["BUY", "SELL"], { error: 'side must be "BUY" or "SELL"' }),
  lots: whole("lots", 1, 1000),
  payUpTicks: whole("payUpTicks", 0, 100).default(1),
  hedgeTimeoutMs: whole("hedgeTimeoutMs", 100, 600_000).default(GUARD_DEFAULTS.hedgeTimeoutMs),
  adverseTicks: whole("adverseTicks", 1, 1000).default(GUARD_DEFAULTS.adverseTicks),
  onHedgeFail: z.enum(["flatten", "alert"], { error: 'onHedgeFail must be "flatten" or "alert"' }),
  dryRun: z.boolean({ error: "dryRun must be true or false" }).default(true),
  positionId: whole("positionId", 1, Number.MAX_SAFE_INTEGER).optional(),
  idempotencyKey: idempotencyKeySchema,
});

/** What the ticket's preview line is asked for while the trader fills in the form. */
export const previewExecutionInput = z.strictObject({
  spread: createExecutionInput.shape.spread,
  side: createExecutionInput.shape.side,
  lots: whole("lots", 1, 1000),
  payUpTicks: whole("payUpTicks", 0, 100).default(1),
});

const executionId = z.strictObject({
  id: z.string({ error: "id is required" }).regex(/^sw[0-9a-f]{12}$/, "Execution not found"),
});

const notFound = () => new PositionError("not_found", "Execution not found");

/**
 * The leader's engine looks now: this instance's at once (if it leads), every instance's through
 * the bus, so a campaign made on a follower does not wait for the leader's idle poll.
 */
function wakeExecutions(services: AppServices): void {
  services.executions?.wake();
  services.bus.publish("executions.changed", {});
}

/** Live orders through each trader's own Kite (docs/user-guide.md "Live orders"). */
export const executionsRouter = {
  /** A ticket: dry run (the default) answers the exact requests; live stores and works it. */
  create: authedProcedure.input(createExecutionInput).mutation(({ ctx, input }) =>
    guard(async () => {
      const { services } = ctx;
      const { dryRun, idempotencyKey: _k, ...ticket } = input;
      const viewer = { id: ctx.user.id, isAdmin: ctx.user.isAdmin };
      const liveOrders = new LiveOrders(services.store);
      const trader = await liveOrders.of(viewer.id);
      const max = LiveOrders.maxLots(trader);
      if (ticket.lots > max)
        throw new ExecutionRefusal(`lots: at most ${max} lots per ticket for you`);
      if (
        ticket.positionId !== undefined &&
        !(await services.store.positions.find(viewer.id, ticket.positionId))
      )
        throw new PositionError("bad_request", "positionId: no such position of yours");
      const built = buildCampaign(services, viewer, ticket);
      const requests = ticketRequests(services, built.id, built.doc);
      if (dryRun)
        return {
          id: null,
          status: "dry-run",
          dryRun: true,
          requests,
          legs: ticketLegs(built.doc),
          ...(await ticketMargin(services, viewer.id, requests)),
        };
      if (!(await liveOrders.enabled()))
        throw new ExecutionRefusal("Live orders are switched off for everyone by an admin");
      if (!trader.enabled)
        throw new ExecutionRefusal("Live orders are not enabled for you; ask an admin");
      const links = new KiteLinks(services.store, services.auth.password);
      if ((await links.accessToken(viewer.id, Date.now())) === undefined)
        throw new ExecutionRefusal(
          "Your Kite session is missing or has expired; connect Kite in Profile",
        );
      const call = keyedCall(services.store, viewer.id, "executions.create", input);
      const { response } = await once(call, async (tx) => {
        const now = Date.now();
        await tx.executions.create({
          id: built.id,
          ownerId: viewer.id,
          spread: ticket.spread,
          status: "working",
          doc: built.doc,
          createdAt: now,
          updatedAt: now,
        });
        return { id: built.id, requests };
      });
      wakeExecutions(services);
      return { id: response.id, status: "working", dryRun: false, requests: response.requests };
    }),
  ),

  /**
   * The ticket before it is sent: each leg's lots and Kite quantity, Kite's basket margin of the
   * very requests a dry run answers (the same campaign, the same margin call) and their round
   * trip's costs, so the preview and what is sent cannot disagree. Refusals are the ticket's own
   * (409).
   */
  preview: authedProcedure.input(previewExecutionInput).query(({ ctx, input }) =>
    guard(async () => {
      const { services } = ctx;
      const viewer = { id: ctx.user.id, isAdmin: ctx.user.isAdmin };
      const built = buildCampaign(services, viewer, {
        ...input,
        ...GUARD_DEFAULTS,
        onHedgeFail: "flatten",
      });
      const requests = ticketRequests(services, built.id, built.doc);
      return {
        legs: ticketLegs(built.doc),
        costsInr: ticketCostsInr(built.doc, requests, services.hub.costRates, (key) =>
          services.positions.specOf(key),
        ),
        ...(await ticketMargin(services, viewer.id, requests)),
      };
    }),
  ),

  get: authedProcedure.input(executionId).query(({ ctx, input }) =>
    guard(async () => {
      const row = await ctx.services.store.executions.get(input.id);
      // Another user's campaign does not exist for this one, admins included.
      if (!row || row.ownerId !== ctx.user.id) throw notFound();
      const spread = ctx.services.spreads.bySymbolName(row.spread);
      const compiled = spread?.checked?.compiled;
      return campaignView(row, (prices) =>
        compiled?.evaluate(compiled.legs.map((name) => prices[name] as number)),
      );
    }),
  ),

  list: authedProcedure.query(async ({ ctx }) => {
    const rows = await ctx.services.store.executions.listOf(ctx.user.id, 50);
    return rows.map((row) => ({
      id: row.id,
      spread: row.spread,
      status: row.status,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }));
  }),

  /** Cancels what rests; fills already made are still hedged (the guard's rule applies). */
  cancel: authedProcedure.input(executionId).mutation(({ ctx, input }) =>
    guard(async () => {
      const { store } = ctx.services;
      const row = await store.executions.get(input.id);
      if (!row || row.ownerId !== ctx.user.id) throw notFound();
      await store.keyValues.set(cancelKey(row.id), true, Date.now());
      wakeExecutions(ctx.services);
      return { id: row.id, cancelRequested: true };
    }),
  ),
} satisfies TRPCRouterRecord;

const linkReply = (
  link: { kiteUserId: string; savedAt: number; expiresAt: number } | undefined,
  now: number,
) => ({
  linked: link !== undefined,
  kiteUserId: link?.kiteUserId ?? null,
  savedAt: link?.savedAt ?? null,
  expiresAt: link?.expiresAt ?? null,
  expired: link !== undefined && link.expiresAt <= now,
});

/** The trader's own Kite link and live-order settings (Profile → Connect Kite). */
export const profileKiteRouter = {
  get: authedProcedure.query(async ({ ctx }) => {
    const { store, auth } = ctx.services;
    const link = await new KiteLinks(store, auth.password).view(ctx.user.id);
    const trader = await new LiveOrders(store).of(ctx.user.id);
    return {
      ...linkReply(link, Date.now()),
      liveOrders: trader.enabled,
      maxLots: LiveOrders.maxLots(trader),
      capLots: trader.capLots,
    };
  }),

  /** Links the trader's Kite (a request token from Kite's login) and/or sets their own max lots. */
  put: authedProcedure
    .input(
      z.strictObject({
        requestToken: z
          .string()
          .trim()
          .min(1, "requestToken must not be empty")
          .max(200)
          .optional(),
        maxLots: whole("maxLots", 1, 1000).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { store, auth, kite } = ctx.services;
      const links = new KiteLinks(store, auth.password);
      if (input.requestToken !== undefined) {
        try {
          const session = await exchangeRequestToken(kite, input.requestToken);
          await links.save(ctx.user.id, session);
        } catch (error) {
          if (!(error instanceof KiteLoginError)) throw error;
          throw new TRPCError({ code: "BAD_REQUEST", message: error.message });
        }
      }
      const liveOrders = new LiveOrders(store);
      if (input.maxLots !== undefined)
        await liveOrders.update(ctx.user.id, { ownMaxLots: input.maxLots }, Date.now());
      const trader = await liveOrders.of(ctx.user.id);
      return {
        ...linkReply(await links.view(ctx.user.id), Date.now()),
        liveOrders: trader.enabled,
        maxLots: LiveOrders.maxLots(trader),
        capLots: trader.capLots,
      };
    }),

  /**
   * Kite's login page for the trader's own account. `redirect_params` carries the one-time state
   * and `for=profile`, so Kite's redirect to /api/kite/callback links this trader's Kite.
   */
  loginUrl: authedProcedure.query(async ({ ctx }) => {
    const { kite, store } = ctx.services;
    if (!kite.apiKey || !kite.apiSecret)
      throw new TRPCError({
        code: "PRECONDITION_FAILED",
        message: "Kite Connect is not configured on this server",
      });
    const state = await new KiteLoginStates(store).issue(ctx.user.id);
    const url = new URL(kite.loginUrl);
    url.searchParams.set("v", "3");
    url.searchParams.set("api_key", kite.apiKey);
    url.searchParams.set("redirect_params", `state=${state}&for=profile`);
    return { url: url.toString() };
  }),

  /** Kite's redirect back: only for a login this trader started here (its state). */
  exchange: authedProcedure
    .input(
      z.strictObject({
        requestToken: z.string({ error: "Kite's request_token is missing" }).trim().min(1).max(200),
        state: z.string({ error: "This Kite login was not started here" }).max(200),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { store, auth, kite } = ctx.services;
      if (!(await new KiteLoginStates(store).consume(input.state, ctx.user.id)))
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: "This Kite login was not started here, was already used or is too old",
        });
      try {
        const session = await exchangeRequestToken(kite, input.requestToken);
        return await new KiteLinks(store, auth.password).save(ctx.user.id, session);
      } catch (error) {
        if (!(error instanceof KiteLoginError)) throw error;
        throw new TRPCError({ code: "BAD_REQUEST", message: error.message });
      }
    }),

  remove: authedProcedure.input(noInput).mutation(async ({ ctx }) => {
    const { store, auth } = ctx.services;
    await new KiteLinks(store, auth.password).revoke(ctx.user.id);
    return { linked: false };
  }),
} satisfies TRPCRouterRecord;

/** Admins: the kill switch for everyone, and each trader's enable and cap. */
export const liveOrdersRouter = {
  get: adminProcedure.query(async ({ ctx }) => ({
    enabled: await new LiveOrders(ctx.services.store).enabled(),
  })),

  set: adminProcedure
    .input(z.strictObject({ enabled: z.boolean({ error: "enabled must be true or false" }) }))
    .mutation(async ({ ctx, input }) => {
      await new LiveOrders(ctx.services.store).setEnabled(input.enabled, Date.now());
      wakeExecutions(ctx.services);
      return { enabled: input.enabled };
    }),

  setTrader: adminProcedure
    .input(
      z.strictObject({
        id: whole("id", 1, Number.MAX_SAFE_INTEGER),
        enabled: z.boolean({ error: "enabled must be true or false" }).optional(),
        capLots: whole("capLots", 1, 1000).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const user = await ctx.services.store.users.findById(input.id);
      if (!user) throw new TRPCError({ code: "NOT_FOUND", message: "User not found" });
      const { id, ...patch } = input;
      const next = await new LiveOrders(ctx.services.store).update(
        id,
        Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
        Date.now(),
      );
      wakeExecutions(ctx.services);
      return { id, enabled: next.enabled, capLots: next.capLots };
    }),
} satisfies TRPCRouterRecord;
