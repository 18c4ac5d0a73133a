import type { UserSummary } from "@spreadwatch/db";
import { z } from "zod";

/** A user as the spec's responses spell it (snake_case flags); never a password hash. */
export const userView = z.object({
  id: z.number(),
  username: z.string(),
  is_admin: z.boolean(),
  alerts_enabled: z.boolean(),
});

export type UserView = z.infer<typeof userView>;

export function toUserView(user: UserSummary): UserView {
  return {
    id: user.id,
    username: user.username,
    is_admin: user.isAdmin,
    alerts_enabled: user.alertsEnabled,
  };
}
