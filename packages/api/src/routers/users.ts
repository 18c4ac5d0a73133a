import {
  createUser,
  type Database,
  deleteUser,
  deleteUserSessions,
  findUserById,
  isUniqueViolation,
  listUsers,
  setUserPermission,
  type User,
} from "@spreadwatch/db";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { UsernameTakenError } from "../auth/accounts.ts";
import { newPasswordSchema, usernameSchema } from "../auth/credentials.ts";
import { hashPassword, verifyPassword } from "../auth/passwords.ts";
import { toUserView } from "../auth/user-view.ts";
import { idempotencyKeySchema, keyReusedError, once } from "../idempotency.ts";
import { adminProcedure } from "../trpc.ts";

const userId = z
  .number({ error: "id must be a number" })
  .int()
  .positive("id must be a positive integer");

const createInput = z.object({
  username: usernameSchema,
  password: newPasswordSchema(),
  is_admin: z.boolean({ error: "is_admin must be true or false" }).default(false),
  alerts_enabled: z.boolean({ error: "alerts_enabled must be true or false" }).default(false),
  idempotencyKey: idempotencyKeySchema,
});

const permissionInput = z.object({
  id: userId,
  permission: z.literal("alerts_enabled", { error: 'permission must be "alerts_enabled"' }),
  value: z.boolean({ error: "value must be true or false" }),
});

type NewAccount = { username: string; is_admin: boolean; alerts_enabled: boolean };

function insertAccount(db: Database, account: NewAccount, passwordHash: string): User {
  try {
    return createUser(db, {
      username: account.username,
      passwordHash,
      isAdmin: account.is_admin,
      alertsEnabled: account.alerts_enabled,
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new TRPCError({
        code: "CONFLICT",
        message: new UsernameTakenError(account.username).message,
      });
    }
    throw error;
  }
}

/**
 * The password is left out of the stored fingerprint (a fast digest of it would be a weak
 * hash); a replay checks it against the account the first request made instead.
 */
async function expectSamePassword(db: Database, userId: number, password: string): Promise<void> {
  const user = findUserById(db, userId);
  if (user && !(await verifyPassword(password, user.passwordHash))) throw keyReusedError();
}

function notFound(): TRPCError {
  return new TRPCError({ code: "NOT_FOUND", message: "User not found" });
}

export const usersRouter = {
  list: adminProcedure.query(({ ctx }) => ({ users: listUsers(ctx.services.db).map(toUserView) })),

  create: adminProcedure.input(createInput).mutation(async ({ ctx, input }) => {
    const { db } = ctx.services;
    const { idempotencyKey, password, ...request } = input;
    // Hashed first: the create and its idempotency record then share one synchronous transaction.
    const passwordHash = await hashPassword(password);
    const call = {
      db,
      userId: ctx.user.id,
      operation: "users.create",
      key: idempotencyKey,
      request,
    };
    const { response, replayed } = once(call, () => ({
      status: "success" as const,
      message: "User created successfully",
      user: toUserView(insertAccount(db, request, passwordHash)),
    }));
    if (replayed) await expectSamePassword(db, response.user.id, password);
    return response;
  }),

  delete: adminProcedure.input(z.object({ id: userId })).mutation(({ ctx, input }) => {
    if (input.id === ctx.user.id) {
      throw new TRPCError({ code: "BAD_REQUEST", message: "You cannot delete your own account." });
    }
    const { db } = ctx.services;
    if (!findUserById(db, input.id)) throw notFound();
    // Tombstones first, so the deleted user's open browser learns why it was signed out.
    deleteUserSessions(db, input.id, "user_deleted");
    deleteUser(db, input.id);
    ctx.services.alertEngine.refreshUser(input.id);
    return { status: "success" as const, message: "User deleted successfully" };
  }),

  setPermission: adminProcedure.input(permissionInput).mutation(({ ctx, input }) => {
    if (!setUserPermission(ctx.services.db, input.id, input.permission, input.value))
      throw notFound();
    // Off stops the user's server-side alerts at once; on brings them back without an edit.
    ctx.services.alertEngine.refreshUser(input.id);
    return { status: "success" as const, message: "User permission updated successfully" };
  }),
} satisfies TRPCRouterRecord;
