import type { RouterOutputs } from "@spreadwatch/api";
import type { Query, QueryClient } from "@tanstack/react-query";
import { getQueryKey } from "@trpc/react-query";
import { trpc } from "../trpc.ts";
import type { ExpiryReason } from "./errors.ts";

export type AuthStatus = RouterOutputs["auth"]["status"];
export type SessionUser = Extract<AuthStatus, { status: "authenticated" }>["user"];

/**
 * The `auth.status` query is the one source of who is signed in. The transitions below write
 * into it what the server would now answer, so the app never keeps a second copy of the user.
 */
export const authStatusKey = getQueryKey(trpc.auth.status, undefined, "query");

/** Routers whose data needs no session and so survives a sign-out. */
const PUBLIC_ROUTERS = new Set(["market"]);

function survivesSignOut(query: Query): boolean {
  const [path] = query.queryKey;
  if (!Array.isArray(path)) return false;
  return PUBLIC_ROUTERS.has(path[0]) || (path[0] === "auth" && path[1] === "status");
}

/** Nothing fetched under one user's session may show to the next one signing in here. */
function dropPrivateData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => !survivesSignOut(query) });
}

function setStatus(queryClient: QueryClient, status: AuthStatus): void {
  queryClient.setQueryData<AuthStatus>(authStatusKey, status);
}

/** Login success (docs/spec.md §4): set the user, clear the expired flag. */
export function signIn(queryClient: QueryClient, user: SessionUser): void {
  dropPrivateData(queryClient);
  setStatus(queryClient, { status: "authenticated", user });
}

/**
 * The signed-in user as the server has them now (the heartbeat's answer), written only when
 * something changed, e.g. an admin granted alerts, so a plain beat re-renders nothing. Another
 * user means someone signed in as them in another tab of this browser: this page becomes theirs
 * as after a login, without the first user's data.
 */
export function refreshUser(queryClient: QueryClient, user: SessionUser): void {
  const current = queryClient.getQueryData<AuthStatus>(authStatusKey);
  if (current?.status !== "authenticated") return;
  const was = current.user;
  if (was.id !== user.id) signIn(queryClient, user);
  else if (
    was.username !== user.username ||
    was.is_admin !== user.is_admin ||
    was.alerts_enabled !== user.alerts_enabled
  )
    setStatus(queryClient, { status: "authenticated", user });
}

/** Logout (docs/spec.md §4): clear the user; the route guards then send the browser to /login. */
export function signOut(queryClient: QueryClient): void {
  dropPrivateData(queryClient);
  setStatus(queryClient, { status: "unauthenticated" });
}

/** Session expiry (docs/spec.md §4): clear the user and set the expired flag with the server's reason. */
export function expireSession(queryClient: QueryClient, reason: ExpiryReason): void {
  dropPrivateData(queryClient);
  setStatus(queryClient, { status: "session_expired", reason });
}
