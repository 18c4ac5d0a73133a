import { type Store, type User, UsernameTakenError } from "@spreadwatch/db";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { newPasswordSchema, usernameSchema } from "../auth/credentials.ts";
import { hashPassword, verifyPassword } from "../auth/passwords.ts";
import { toUserView, userView } from "../auth/user-view.ts";
import { ErrorWithFields } from "../errors.ts";
import { idempotencyKeySchema, keyedCall, keyReusedError, once } from "../idempotency.ts";
import { alertSymbolsOf } from "../instruments/used-by.ts";
import { adminProcedure, announcesAlertsChanged } from "../trpc.ts";
import { byId, notFound, recordId, success } from "./shared.ts";

const createInput = z.strictObject({
  username: usernameSchema,
  password: newPasswordSchema(),
  is_admin: z.boolean({ error: "is_admin must be true or false" }).default(false),
  alerts_enabled: z.boolean({ error: "alerts_enabled must be true or false" }).default(false),
  idempotencyKey: idempotencyKeySchema,
});

const permissionInput = z.strictObject({
  id: recordId,
  permission: z.literal("alerts_enabled", { error: 'permission must be "alerts_enabled"' }),
  value: z.boolean({ error: "value must be true or false" }),
});

/** docs/spec.md §8's success sentence, which the admin screen shows. */
const messageReply = success.extend({ message: z.string() });

type NewAccount = { username: string; is_admin: boolean; alerts_enabled: boolean };

async function insertAccount(
  store: Store,
  account: NewAccount,
  passwordHash: string,
): Promise<User> {
  try {
    return await store.users.create({
      username: account.username,
      passwordHash,
      isAdmin: account.is_admin,
      alertsEnabled: account.alerts_enabled,
    });
  } catch (error) {
    if (error instanceof UsernameTakenError) {
      throw new TRPCError({ code: "CONFLICT", message: error.message });
    }
    throw error;
  }
}

/**
 * The password is left out of the stored fingerprint (a fast digest of it would be a weak
 * hash); a replay checks it against the account the first request made instead.
 */
async function expectSamePassword(store: Store, userId: number, password: string): Promise<void> {
  const user = await store.users.findById(userId);
  if (user && !(await verifyPassword(password, user.passwordHash))) throw keyReusedError();
}

export const usersRouter = {
  list: adminProcedure.output(z.object({ users: z.array(userView) })).query(async ({ ctx }) => ({
    users: (await ctx.services.store.users.list()).map(toUserView),
  })),

  create: adminProcedure
    .input(createInput)
    .output(messageReply.extend({ user: userView }))
    .mutation(async ({ ctx, input }) => {
      const { store, auth } = ctx.services;
      // The password is not part of the request the key is stored with (nor any secret).
      const { password, ...withoutPassword } = input;
      const call = keyedCall(store, ctx.user.id, "users.create", withoutPassword);
      const { request } = call;
      // Hashed first, so the transaction that records the key is not held open for the hash.
      const passwordHash = await hashPassword(password, auth.passwordCost);
      const { response, replayed } = await once(call, async (tx) => ({
        status: "success" as const,
        message: "User created successfully",
        user: toUserView(await insertAccount(tx, request, passwordHash)),
      }));
      if (replayed) await expectSamePassword(store, response.user.id, password);
      return response;
    }),

  delete: adminProcedure
    .input(byId)
    .use(announcesAlertsChanged(({ id }) => id))
    .output(messageReply)
    .mutation(async ({ ctx, input }) => {
      if (input.id === ctx.user.id) {
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: "You cannot delete your own account.",
        });
      }
      const { store, spreads, bus } = ctx.services;
      if (!(await store.users.findById(input.id))) throw notFound("User");
      // Their spread definitions go with them, and with each every alert on it, anyone's (an
      // admin's shared spread may carry other traders' alerts, which would point at nothing).
      const theirs = spreads.all().filter((spread) => spread.ownerId === input.id);
      // Another trader's open position on their shared spread would lose its spread: refused,
      // as deleting that spread is (docs/http-api.md "Positions API (paper)").
      const own = await store.positions.list(input.id, "open");
      let positions = 0;
      for (const spread of theirs)
        positions +=
          (await store.positions.countOpenOn(spread.symbol)) -
          own.filter((p) => p.spread === spread.symbol).length;
      if (positions > 0) {
        const message = `${positions} open position${positions === 1 ? " of another user is" : "s of other users are"} on this user's shared spreads; they must be closed first`;
        throw new TRPCError({
          code: "CONFLICT",
          message,
          cause: new ErrorWithFields(message, { positions }),
        });
      }
      for (const spread of theirs) {
        const { alertOwners } = await store.spreads.delete(spread.id, alertSymbolsOf(spread));
        for (const userId of alertOwners) bus.publish("alerts.changed", { userId });
      }
      // The store leaves "user_deleted" tombstones, so the user's open browser learns why.
      if (!(await store.users.delete(input.id, Date.now()))) throw notFound("User");
      // Their positions went with the account (the store's cascade); every index forgets them.
      ctx.services.positions.announce(input.id);
      if (theirs.length > 0) {
        await spreads.reload();
        for (const spread of theirs) bus.publish("spreads.changed", { id: spread.id });
      }
      return { status: "success" as const, message: "User deleted successfully" };
    }),

  /** Off stops the user's server-side alerts at once; on brings them back without an edit. */
  setPermission: adminProcedure
    .input(permissionInput)
    .use(announcesAlertsChanged(({ id }) => id))
    .output(messageReply)
    .mutation(async ({ ctx, input }) => {
      const { store } = ctx.services;
      if (!(await store.users.setPermission(input.id, input.permission, input.value)))
        throw notFound("User");
      return { status: "success" as const, message: "User permission updated successfully" };
    }),
} satisfies TRPCRouterRecord;
