import type { SessionUser } from "../../session/cache.ts";
import { LogoutButton } from "./LogoutButton.tsx";
import { ScreenLink } from "./ScreenLink.tsx";

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
      <ScreenLink href="/profile">Profile</ScreenLink>
      {user?.is_admin && <ScreenLink href="/admin">Admin</ScreenLink>}
      <ScreenLink href="/advanced-chart">Advanced Charts</ScreenLink>
      <ScreenLink href="/positions">Positions</ScreenLink>
      {/* Not named "…Profile": the header's Profile link keeps its name to itself. */}
      <ScreenLink href="/profile" className="account__note">
        Theme settings
      </ScreenLink>
      <LogoutButton />
    </>
  );
}

/** The account area of the other screens' headers: Profile, the user's name, Logout. */
export function ScreenAccount({ user }: { user: SessionUser }) {
  return (
    <>
      <ScreenLink href="/profile">Profile</ScreenLink>
      <AccountName user={user} />
      <LogoutButton />
    </>
  );
}
