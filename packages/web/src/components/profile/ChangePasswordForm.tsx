import { type FormEvent, useState } from "react";
import { useFlash } from "../../hooks/ui/useFlash.ts";
import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";
import { Field } from "../ui/Field.tsx";
import { FlashMessages } from "../ui/Message.tsx";
import { FormActions } from "../ui/SubmitButton.tsx";

/** The first check that fails, in docs/spec.md §5's order; undefined when the form may be sent. */
function checkPasswords(current: string, next: string, confirm: string): string | undefined {
  if (!current) return "Current password is required";
  if (!next) return "New password is required";
  if (next !== confirm) return "New passwords do not match";
  return undefined;
}

export function ChangePasswordForm() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const flash = useFlash();
  const change = trpc.auth.changePassword.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkPasswords(current, next, confirm);
    if (problem) {
      flash.showError(problem);
      return;
    }
    flash.clear();
    change.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: (result) => {
          flash.showSuccess(result.message || "Password updated successfully");
          setCurrent("");
          setNext("");
          setConfirm("");
        },
        onError: (error) =>
          flash.showError(
            failureText(error, {
              fallback: "Failed to update password",
              network: "An error occurred. Please try again.",
            }),
          ),
      },
    );
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Change Password">
      <FlashMessages flash={flash} />
      <Field
        label="Current Password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={setCurrent}
      />
      <Field
        label="New Password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        value={next}
        onChange={setNext}
      />
      <Field
        label="Confirm New Password"
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={setConfirm}
      />
      <FormActions busy={change.isPending} busyLabel="Updating...">
        Update Password
      </FormActions>
    </form>
  );
}
