import { trpc } from "../trpc.ts";
import type { SessionUser } from "./cache.ts";
import type { ExpiryReason } from "./errors.ts";

export type Session =
  | { state: "loading" }
  | { state: "signed-out"; expiredReason?: ExpiryReason }
  | { state: "signed-in"; user: SessionUser };

/**
 * Who is signed in, from `auth.status`. It is fetched once at app start; afterwards only the
 * transitions in cache.ts change it, and the heartbeat watches the session in between.
 */
export function useSession(): Session {
  const status = trpc.auth.status.useQuery(undefined, {
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const data = status.data;
  if (data?.status === "authenticated") return { state: "signed-in", user: data.user };
  if (data?.status === "session_expired")
    return { state: "signed-out", expiredReason: data.reason };
  // A status that cannot be fetched at all counts as signed out: the login screen says why.
  if (status.isPending) return { state: "loading" };
  return { state: "signed-out" };
}
