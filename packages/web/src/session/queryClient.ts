import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { expireSession } from "./cache.ts";
import { httpStatusOf, sessionExpiryOf } from "./errors.ts";

const MAX_RETRIES = 3;

/**
 * A 4xx is the server's considered answer; asking again only delays what the user sees (and
 * would hold back the sign-out that a 401 `session_expired` calls for).
 */
function retryUnlessRefused(failureCount: number, error: unknown): boolean {
  const status = httpStatusOf(error);
  return failureCount < MAX_RETRIES && !(status !== undefined && status >= 400 && status < 500);
}

/**
 * Every query and mutation goes through these caches, so this is the one place that notices a
 * session ended by the server (docs/spec.md §4 "Session expiry"), whichever screen made the call.
 */
export function createQueryClient(): QueryClient {
  const onError = (error: unknown) => {
    const reason = sessionExpiryOf(error);
    if (reason) expireSession(queryClient, reason);
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: { queries: { retry: retryUnlessRefused } },
  });
  return queryClient;
}
