import type { UserSummary } from "@spreadwatch/db";

/** A user as the spec's responses spell it (snake_case flags); never a password hash. */
export interface UserView {
  id: number;
  username: string;
  is_admin: boolean;
  alerts_enabled: boolean;
}

export function toUserView(user: UserSummary): UserView {
  return {
    id: user.id,
    username: user.username,
    is_admin: user.isAdmin,
    alerts_enabled: user.alertsEnabled,
  };
}
