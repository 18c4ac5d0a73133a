import { Link } from "wouter";
import type { SessionUser } from "../../session/cache.ts";
import { LogoutButton } from "./LogoutButton.tsx";

/** The header shows the username with its first letter capitalised, or "Guest" (docs/spec.md §2). */
export function displayName(username: string | undefined): string {
  if (!username) return "Guest";
  return username.charAt(0).toUpperCase() + username.slice(1);
}

/** Who is signed in, as the header names them. */
function AccountName({ user }: { user: SessionUser | undefined }) {
  return (
    <span className="account__user" data-testid="account-user">
      {displayName(user?.username)}
    </span>
  );
}

/** The dashboard header's account area (docs/spec.md §2). */
export function AccountMenu({ user }: { user: SessionUser | undefined }) {
  return (
    <>
      <AccountName user={user} />
      <Link href="/profile">Profile</Link>
      {user?.is_admin && <Link href="/admin">Admin</Link>}
      <Link href="/advanced-chart">Advanced Charts</Link>
      <Link href="/positions">Positions</Link>
      {/* Not named "…Profile": the header's Profile link keeps its name to itself. */}
      <Link href="/profile" className="account__note">
        Theme settings
      </Link>
      <LogoutButton />
    </>
  );
}

/** The account area of the other screens' headers: Profile, the user's name, Logout. */
export function ScreenAccount({ user }: { user: SessionUser }) {
  return (
    <>
      <Link href="/profile">Profile</Link>
      <AccountName user={user} />
      <LogoutButton />
    </>
  );
}
