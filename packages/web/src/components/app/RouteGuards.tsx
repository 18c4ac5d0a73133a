import type { ReactNode } from "react";
import { Redirect } from "wouter";
import type { SessionUser } from "../../session/cache.ts";
import { useSession } from "../../session/useSession.ts";

// The docs/spec.md §2 access table as components. "Loading..." while the status is fetched is the
// router's job (App.tsx), so by the time a guard renders the session is known.

interface GuardProps {
  render: (user: SessionUser) => ReactNode;
}

/** Signed-in users only; everyone else to /login. */
export function SignedIn({ render }: GuardProps) {
  const session = useSession();
  if (session.state !== "signed-in") return <Redirect to="/login" replace />;
  return render(session.user);
}

/** Admins only; other signed-in users to /, signed-out visitors to /login. */
export function AdminOnly({ render }: GuardProps) {
  const session = useSession();
  if (session.state !== "signed-in") return <Redirect to="/login" replace />;
  if (!session.user.is_admin) return <Redirect to="/" replace />;
  return render(session.user);
}

/** The login screen: a signed-in user goes to the dashboard instead. */
export function SignedOut({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.state === "signed-in") return <Redirect to="/" replace />;
  return children;
}
