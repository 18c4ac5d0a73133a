import { SESSION_END_REASONS } from "@spreadwatch/db";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { changeAccountPassword } from "../auth/accounts.ts";
import { loginInput, newPasswordSchema } from "../auth/credentials.ts";
import { MAX_PASSWORD_LENGTH, unknownUserHash, verifyPassword } from "../auth/passwords.ts";
import {
  clearSessionCookie,
  clientAddress,
  newSessionId,
  resolveSession,
  saveSessionCookie,
} from "../auth/session.ts";
import { toUserView, userView } from "../auth/user-view.ts";
import { authedProcedure, publicProcedure } from "../trpc.ts";
import { noInput, success } from "./shared.ts";

const changePasswordInput = z.strictObject({
  currentPassword: z
    .string({ error: "Current password is required" })
    .min(1, "Current password is required")
    .max(MAX_PASSWORD_LENGTH),
  newPassword: newPasswordSchema("New password"),
});

const loginReply = z.object({ user: userView, another_session_logged_out: z.boolean() });

/** Why a session is gone: "logged_out" leaves no tombstone, so it is never a reason. */
const endReason = z.enum(SESSION_END_REASONS).exclude(["logged_out"]);

const statusReply = z.discriminatedUnion("status", [
  z.object({ status: z.literal("authenticated"), user: userView }),
  z.object({ status: z.literal("session_expired"), reason: endReason }),
  z.object({ status: z.literal("unauthenticated") }),
]);

const heartbeatReply = z.discriminatedUnion("valid", [
  z.object({ valid: z.literal(true), user: userView }),
  z.object({
    valid: z.literal(false),
    reason: z.union([endReason, z.literal("not_authenticated")]),
  }),
]);

export const authRouter = {
  login: publicProcedure
    .input(loginInput)
    .output(loginReply)
    .mutation(async ({ ctx, input }) => {
      const { store, loginThrottle, auth } = ctx.services;
      // Counted before the hash runs, so parallel guesses cannot all reach it.
      const attempt = await loginThrottle.begin(input.username, clientAddress(ctx));
      const user = await store.users.findByUsername(input.username);
      const ok = await verifyPassword(
        input.password,
        user?.passwordHash ?? (await unknownUserHash(auth.passwordCost)),
      );
      if (!user || !ok) {
        throw new TRPCError({ code: "UNAUTHORIZED", message: "Invalid username or password" });
      }
      await attempt.succeeded();
      const now = Date.now();
      const sessionId = newSessionId();
      const ended = await store.sessions.create(user.id, sessionId, now);
      await saveSessionCookie(ctx, sessionId);
      return { user: toUserView(user), another_session_logged_out: ended > 0 };
    }),

  /** Always succeeds: signing out of a session that is already gone is still signing out. */
  logout: publicProcedure
    .input(noInput)
    .output(success)
    .mutation(async ({ ctx }) => {
      const state = await resolveSession(ctx);
      if (state.kind === "valid")
        await ctx.services.store.sessions.end(state.sessionId, "logged_out", Date.now());
      await clearSessionCookie(ctx);
      return { status: "success" as const };
    }),

  status: publicProcedure.output(statusReply).query(async ({ ctx }) => {
    const state = await resolveSession(ctx);
    if (state.kind === "valid")
      return { status: "authenticated" as const, user: toUserView(state.user) };
    if (state.kind === "ended") return { status: "session_expired" as const, reason: state.reason };
    return { status: "unauthenticated" as const };
  }),

  /**
   * A live session also says who it is now, so an open page picks up what an admin changed
   * (alerts_enabled granted or taken away) at its next beat, without a reload.
   */
  heartbeat: publicProcedure.output(heartbeatReply).query(async ({ ctx }) => {
    const state = await resolveSession(ctx);
    if (state.kind === "valid") return { valid: true as const, user: toUserView(state.user) };
    return {
      valid: false as const,
      reason: state.kind === "ended" ? state.reason : ("not_authenticated" as const),
    };
  }),

  /**
   * Ends every session of the user, this one too, and starts a new one for this browser under a
   * new cookie: whoever knew the old password is signed out everywhere, and a copy of this
   * session's old cookie no longer signs anyone in.
   */
  changePassword: authedProcedure
    .input(changePasswordInput)
    .output(success.extend({ message: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const { store, auth } = ctx.services;
      if (!(await verifyPassword(input.currentPassword, ctx.user.passwordHash))) {
        throw new TRPCError({ code: "BAD_REQUEST", message: "Current password is incorrect" });
      }
      await changeAccountPassword(store, ctx.user.id, input.newPassword, auth.passwordCost);
      const sessionId = newSessionId();
      await store.sessions.create(ctx.user.id, sessionId, Date.now());
      await saveSessionCookie(ctx, sessionId);
      return { status: "success" as const, message: "Password updated successfully" };
    }),
} satisfies TRPCRouterRecord;
