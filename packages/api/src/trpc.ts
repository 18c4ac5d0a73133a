import { initTRPC } from "@trpc/server";
import { ZodError } from "zod";
import { forbidden, unauthorized } from "./auth/errors.ts";
import { resolveSession } from "./auth/session.ts";
import type { AppServices, Context } from "./context.ts";
import { describeZodError, ErrorWithFields } from "./errors.ts";

/** Pings let a browser notice a dead stream (and fall back to polling) within seconds. */
export const SSE_PING_INTERVAL_MS = 5_000;
export const SSE_RECONNECT_AFTER_INACTIVITY_MS = 12_000;

const t = initTRPC.context<Context>().create({
  sse: {
    ping: { enabled: true, intervalMs: SSE_PING_INTERVAL_MS },
    client: { reconnectAfterInactivityMs: SSE_RECONNECT_AFTER_INACTIVITY_MS },
  },
  // tRPC clients see the same sentence and flags as REST clients (e.g. `session_expired`), and
  // like them never the message of an unexpected error (it is logged, not sent).
  errorFormatter({ shape, error }) {
    const fields = error.cause instanceof ErrorWithFields ? error.cause.fields : {};
    const message =
      error.code === "INTERNAL_SERVER_ERROR"
        ? "Internal server error"
        : error.cause instanceof ZodError
          ? describeZodError(error.cause)
          : shape.message;
    return { ...shape, message, data: { ...shape.data, stack: undefined, ...fields } };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Open to everyone: prices, calculations, login, status, heartbeat, logout. */
export const publicProcedure = t.procedure;

/** Needs a live session; adds `user` and `sessionId` to the context. */
export const authedProcedure = t.procedure.use(async ({ ctx, next }) => {
  const state = await resolveSession(ctx);
  if (state.kind !== "valid") throw unauthorized(state);
  return next({ ctx: { ...ctx, user: state.user, sessionId: state.sessionId } });
});

/** Needs a live session of a user with is_admin. */
export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!ctx.user.isAdmin) throw forbidden();
  return next();
});

/** Needs a live session of a user with alerts_enabled (docs/spec.md §6: the permission gates alerts). */
export const alertsProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!ctx.user.alertsEnabled) throw forbidden("Alerts are not enabled for your account.");
  return next();
});

/**
 * Publishes alerts.changed once the procedure has succeeded, so every instance's alert engine
 * re-reads the user's watched alerts (a failed call changed nothing). The only place that
 * publishes it: every procedure that changes an alert, an alerts permission or a channel (the
 * engine watches alerts by their usable channels) uses this. The user is the signed-in one
 * unless `whose` picks another from the input (an admin's change).
 */
export function announcesAlertsChanged<Input>(whose?: (input: Input) => number) {
  return async <Result extends { ok: boolean }>(opts: {
    ctx: { services: AppServices; user: { id: number } };
    input: Input;
    next: () => Promise<Result>;
  }): Promise<Result> => {
    const result = await opts.next();
    if (result.ok) {
      const userId = whose ? whose(opts.input) : opts.ctx.user.id;
      opts.ctx.services.bus.publish("alerts.changed", { userId });
    }
    return result;
  };
}
