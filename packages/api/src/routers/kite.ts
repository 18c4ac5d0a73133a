import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import type { AppServices } from "../context.ts";
import { KiteLoginStates } from "../feeds/providers/kite/login-states.ts";
import {
  exchangeRequestToken,
  KiteLoginError,
  kiteLoginUrl,
  kiteSessionsIn,
} from "../feeds/providers/kite/session.ts";
import { adminProcedure } from "../trpc.ts";
import { success } from "./shared.ts";

const STATE_REFUSED =
  "This Kite login was not started here, was already used or is over ten minutes old: start again from /api/kite/login.";

const exchangeInput = z.strictObject({
  requestToken: z
    .string({ error: "Kite's request_token is missing: start again from /api/kite/login." })
    .trim()
    .min(1, "Kite's request_token is missing: start again from /api/kite/login.")
    .max(200, "Kite's request_token is too long."),
  state: z.string({ error: STATE_REFUSED }).max(200, STATE_REFUSED),
});

const statusReply = z.object({
  configured: z.boolean(),
  session: z.enum(["valid", "missing", "expired", "unreadable"]),
  /** Kite's user id of the stored session. */
  userId: z.string().nullable(),
  savedAt: z.number().nullable(),
  expiresAt: z.number().nullable(),
});

const exchangeReply = success.extend({ userId: z.string(), expiresAt: z.number() });

function requireKite(kite: AppServices["kite"]) {
  if (!kite.apiKey || !kite.apiSecret) {
    throw new TRPCError({
      code: "PRECONDITION_FAILED",
      message:
        "Kite Connect is not configured on this server (set KITE_API_KEY and KITE_API_SECRET)",
    });
  }
  return kite;
}

/** The daily Kite Connect login (admins only): the access token it yields feeds the Kite provider. */
export const kiteRouter = {
  status: adminProcedure.output(statusReply).query(async ({ ctx }) => {
    const { kite, store } = ctx.services;
    const stored = await kiteSessionsIn(store).read(Date.now());
    const session = "session" in stored ? stored.session : undefined;
    return {
      configured: Boolean(kite.apiKey && kite.apiSecret),
      session: stored.kind,
      userId: session?.userId ?? null,
      savedAt: session?.savedAt ?? null,
      expiresAt: session?.expiresAt ?? null,
    };
  }),

  loginUrl: adminProcedure.output(z.object({ url: z.string() })).query(async ({ ctx }) => {
    const kite = requireKite(ctx.services.kite);
    const state = await new KiteLoginStates(ctx.services.store).issue(ctx.user.id);
    return { url: kiteLoginUrl(kite, state) };
  }),

  /** Only for a login this server started (its `state`): another site cannot plant its token. */
  exchange: adminProcedure
    .input(exchangeInput)
    .output(exchangeReply)
    .mutation(async ({ ctx, input }) => {
      const kite = requireKite(ctx.services.kite);
      // Any instance may get Kite's redirect: the state is checked in the database.
      if (!(await new KiteLoginStates(ctx.services.store).consume(input.state, ctx.user.id)))
        throw new TRPCError({ code: "BAD_REQUEST", message: STATE_REFUSED });
      try {
        const session = await exchangeRequestToken(kite, input.requestToken);
        // In the database: every instance's Kite provider (the leader's) picks it up from there.
        await kiteSessionsIn(ctx.services.store).save(session);
        return { status: "success" as const, userId: session.userId, expiresAt: session.expiresAt };
      } catch (error) {
        // A 400 keeps Kite's own sentence visible to the admin (REST hides 5xx messages).
        if (error instanceof KiteLoginError)
          throw new TRPCError({ code: "BAD_REQUEST", message: error.message });
        throw error;
      }
    }),
} satisfies TRPCRouterRecord;
