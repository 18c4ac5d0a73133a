import { useQueryClient } from "@tanstack/react-query";
import { signOut } from "../../session/cache.ts";
import { trpc } from "../../trpc.ts";

/** Logout per docs/spec.md §4: tell the server, then sign out here whether or not the call worked. */
export function useLogout(): { logout: () => void; pending: boolean } {
  const queryClient = useQueryClient();
  const mutation = trpc.auth.logout.useMutation({
    onSettled: () => signOut(queryClient),
  });
  return { logout: () => mutation.mutate(), pending: mutation.isPending };
}
