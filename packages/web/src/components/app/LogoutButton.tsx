import { useLogout } from "../../hooks/session/useLogout.ts";

export function LogoutButton() {
  const { logout, pending } = useLogout();
  return (
    <button type="button" className="button button--quiet" onClick={logout} disabled={pending}>
      Logout
    </button>
  );
}
