import { HEARTBEAT_MS, HEARTBEAT_RETRY_MS } from "@spreadwatch/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { expireSession, refreshUser, signOut } from "../../session/cache.ts";
import { trpc } from "../../trpc.ts";

/**
 * Asks the server every 10 s whether this browser's session still stands (30 s after a
 * network error), so a login elsewhere sends this tab to /login without waiting for a click.
 * A live answer carries the user as the server has them now: a permission an admin granted or
 * took away reaches this page at the next beat.
 */
export function useHeartbeat(signedIn: boolean): void {
  const queryClient = useQueryClient();
  const { data } = trpc.auth.heartbeat.useQuery(undefined, {
    enabled: signedIn,
    retry: false,
    refetchInterval: (query) => {
      if (query.state.data?.valid === false) return false;
      return query.state.status === "error" ? HEARTBEAT_RETRY_MS : HEARTBEAT_MS;
    },
    refetchIntervalInBackground: true,
  });

  useEffect(() => {
    if (!signedIn || !data) return;
    if (data.valid) {
      refreshUser(queryClient, data.user);
      return;
    }
    // No reason means no session at all (e.g. logged out in another tab): plain sign-out.
    if (data.reason === "not_authenticated") signOut(queryClient);
    else expireSession(queryClient, data.reason);
  }, [signedIn, data, queryClient]);
}
