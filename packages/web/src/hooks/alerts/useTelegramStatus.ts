import { trpc } from "../../trpc.ts";

/** Whether Telegram is configured on the server and connected for this user. */
export function useTelegramStatus() {
  return trpc.telegram.status.useQuery(undefined, { refetchOnWindowFocus: false });
}
