import type { AppRouter } from "@spreadwatch/api";
import { httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { createTRPCReact } from "@trpc/react-query";

const API_URL = "/api/trpc";

export const trpc = createTRPCReact<AppRouter>();

/** Subscriptions ride one SSE stream per tab; queries and mutations are batched over fetch. */
export function createTrpcClient() {
  return trpc.createClient({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({ url: API_URL }),
        false: httpBatchLink({ url: API_URL }),
      }),
    ],
  });
}
