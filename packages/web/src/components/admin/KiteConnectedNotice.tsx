import { useLocation, useSearch } from "wouter";
import { Message } from "../ui/Message.tsx";

/** Where /api/kite/callback lands after the day's Kite login (`/admin?kite=connected`). */
export function KiteConnectedNotice() {
  const search = useSearch();
  const [, navigate] = useLocation();
  if (new URLSearchParams(search).get("kite") !== "connected") return null;
  return (
    <Message tone="success" onDismiss={() => navigate("/admin", { replace: true })}>
      Kite login saved for today. The Kite provider picks it up within a few seconds; its state
      below turns live once prices arrive.
    </Message>
  );
}
