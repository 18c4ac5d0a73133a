import {
  deleteUser,
  deleteUserSessions,
  findUserById,
  listUsers,
  setUserPermission,
} from "@spreadwatch/db";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { createAccount, UsernameTakenError } from "../auth/accounts.ts";
import { newPasswordSchema, usernameSchema } from "../auth/credentials.ts";
import { toUserView } from "../auth/user-view.ts";
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
});

const permissionInput = z.object({
  id: userId,
  permission: z.literal("alerts_enabled", { error: 'permission must be "alerts_enabled"' }),
  value: z.boolean({ error: "value must be true or false" }),
});

function notFound(): TRPCError {
  return new TRPCError({ code: "NOT_FOUND", message: "User not found" });
}

export const usersRouter = {
  list: adminProcedure.query(({ ctx }) => ({ users: listUsers(ctx.services.db).map(toUserView) })),

  create: adminProcedure.input(createInput).mutation(async ({ ctx, input }) => {
    try {
      const user = await createAccount(ctx.services.db, {
        username: input.username,
        password: input.password,
        isAdmin: input.is_admin,
        alertsEnabled: input.alerts_enabled,
      });
      return {
        status: "success" as const,
        message: "User created successfully",
        user: toUserView(user),
      };
    } catch (error) {
      if (error instanceof UsernameTakenError)
        throw new TRPCError({ code: "CONFLICT", message: error.message });
      throw error;
    }
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
