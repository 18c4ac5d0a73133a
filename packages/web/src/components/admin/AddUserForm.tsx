import { type FormEvent, useState } from "react";
import { useFlash } from "../../hooks/ui/useFlash.ts";
import { useSubmissionKey } from "../../hooks/ui/useSubmissionKey.ts";
import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";
import { Checkbox, Field } from "../ui/Field.tsx";
import { FlashMessages } from "../ui/Message.tsx";
import { FormActions } from "../ui/SubmitButton.tsx";

const EMPTY = { username: "", password: "", is_admin: false, alerts_enabled: false };

export function AddUserForm() {
  const [form, setForm] = useState(EMPTY);
  const flash = useFlash();
  const submission = useSubmissionKey();
  const utils = trpc.useUtils();
  const create = trpc.users.create.useMutation({
    onSettled: () => utils.users.list.invalidate(),
  });
  const set =
    <K extends keyof typeof EMPTY>(key: K) =>
    (value: (typeof EMPTY)[K]) =>
      setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const username = form.username.trim();
    if (!username || !form.password) {
      flash.showError("Username and password are required.");
      return;
    }
    flash.clear();
    const account = { ...form, username };
    // A double click lands before the button is disabled; the key makes it one user.
    create.mutate(
      { ...account, idempotencyKey: submission.keyFor(account) },
      {
        onSuccess: (result) => {
          submission.done();
          flash.showSuccess(result.message || "User created successfully");
          setForm(EMPTY);
        },
        onError: (error) =>
          flash.showError(failureText(error, { fallback: "Failed to create user" })),
      },
    );
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Add New User">
      <Field
        label="Username"
        name="username"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        value={form.username}
        onChange={set("username")}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        value={form.password}
        onChange={set("password")}
      />
      <div className="form__checks">
        <Checkbox
          label="Administrator"
          name="is_admin"
          checked={form.is_admin}
          onChange={set("is_admin")}
        />
        <Checkbox
          label="Enable Alerts"
          name="alerts_enabled"
          checked={form.alerts_enabled}
          onChange={set("alerts_enabled")}
        />
      </div>
      <FlashMessages flash={flash} />
      <FormActions busy={create.isPending} busyLabel="Adding...">
        Add User
      </FormActions>
    </form>
  );
}
