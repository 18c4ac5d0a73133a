import { Link } from "wouter";
import { displayName } from "../components/AccountMenu.tsx";
import { AppHeader } from "../components/AppHeader.tsx";
import { LogoutButton } from "../components/LogoutButton.tsx";
import type { SessionUser } from "../session/cache.ts";

/** A guarded stand-in until the chart issue replaces it (spec §2 Advanced Spread Chart). */
export function AdvancedChart({ user }: { user: SessionUser }) {
  return (
    <div className="page">
      <AppHeader title="Advanced Spread Chart">
        <Link href="/">Back to Dashboard</Link>
        <span className="account__user">{displayName(user.username)}</span>
        <LogoutButton />
      </AppHeader>
      <main className="screen">
        <p className="muted">The spread chart arrives in a coming update.</p>
      </main>
    </div>
  );
}
