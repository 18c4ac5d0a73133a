import type { RouterOutputs } from "@spreadwatch/api";
import { useFlash } from "../../hooks/ui/useFlash.ts";
import type { SessionUser } from "../../session/cache.ts";
import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";
import { DataTable } from "../ui/DataTable.tsx";
import { FlashMessages, Message } from "../ui/Message.tsx";
import type { Column } from "../ui/TableHead.tsx";

type ListedUser = RouterOutputs["users"]["list"]["users"][number];

const COLUMNS: readonly Column[] = [
  { label: "Username" },
  { label: "Role" },
  { label: "Alerts" },
  { label: "Actions", className: "actions" },
];

const PERMISSION = "alerts_enabled";

/** The admin's user table (docs/spec.md §2): role, alerts permission toggle, delete with confirmation. */
export function UserList({ me }: { me: SessionUser }) {
  const list = trpc.users.list.useQuery();
  const flash = useFlash();
  const utils = trpc.useUtils();
  const refresh = () => utils.users.list.invalidate();

  const remove = trpc.users.delete.useMutation({ onSettled: refresh });
  const setPermission = trpc.users.setPermission.useMutation({
    onSettled: async (_result, _error, input) => {
      await refresh();
      // The signed-in admin's own alerts permission gates their dashboard.
      if (input.id === me.id) await utils.auth.status.invalidate();
    },
  });

  const deleteUser = (user: ListedUser) => {
    if (user.id === me.id) {
      flash.showError("You cannot delete your own account.");
      return;
    }
    if (!window.confirm("Are you sure you want to delete this user?")) return;
    remove.mutate(
      { id: user.id },
      {
        onSuccess: (result) => flash.showSuccess(result.message || "User deleted successfully"),
        onError: (error) =>
          flash.showError(failureText(error, { fallback: "Failed to delete user" })),
      },
    );
  };

  const toggleAlerts = (user: ListedUser) =>
    setPermission.mutate(
      { id: user.id, permission: PERMISSION, value: !user.alerts_enabled },
      {
        onSuccess: (result) =>
          flash.showSuccess(result.message || "User permission updated successfully"),
        onError: (error) =>
          flash.showError(
            failureText(error, { fallback: `Failed to update ${PERMISSION} permission` }),
          ),
      },
    );

  if (list.isPending) return <p className="muted">Loading users...</p>;
  if (list.isError) {
    return <Message tone="error">{`Error loading users: ${list.error.message}`}</Message>;
  }
  const users: unknown = list.data?.users;
  if (!Array.isArray(users)) {
    return (
      <Message tone="error">
        Invalid response format: users data is missing or not an array.
      </Message>
    );
  }

  const busyId = (remove.isPending && remove.variables?.id) || undefined;
  const togglingId = (setPermission.isPending && setPermission.variables?.id) || undefined;
  return (
    <>
      <FlashMessages flash={flash} />
      <div className="panel__scroll">
        <DataTable label="Users" className="users-table" columns={COLUMNS}>
          {(users as ListedUser[]).map((user) => (
            <tr key={user.id} data-username={user.username}>
              <th scope="row" className="users-table__name">
                {user.username}
                {user.id === me.id && <span className="you-badge">you</span>}
              </th>
              <td data-col="role">
                <span className={`role role--${user.is_admin ? "admin" : "user"}`}>
                  {user.is_admin ? "Admin" : "User"}
                </span>
              </td>
              <td data-col="alerts">
                <button
                  type="button"
                  role="switch"
                  aria-checked={user.alerts_enabled}
                  aria-label={`Alerts for ${user.username}`}
                  className="toggle"
                  disabled={togglingId === user.id}
                  onClick={() => toggleAlerts(user)}
                >
                  {user.alerts_enabled ? "Enabled" : "Disabled"}
                </button>
              </td>
              <td className="actions">
                <button
                  type="button"
                  className="button button--danger button--small"
                  disabled={busyId === user.id}
                  onClick={() => deleteUser(user)}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      </div>
    </>
  );
}
