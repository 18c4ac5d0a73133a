import type { ReactNode } from "react";

interface SubmitButtonProps {
  /** While the form's request is under way the button waits. */
  busy?: boolean;
  /** Its text while it waits ("Adding..."); without one it keeps its label. */
  busyLabel?: ReactNode;
  children: ReactNode;
}

/** A form's primary button. */
export function SubmitButton({ busy = false, busyLabel, children }: SubmitButtonProps) {
  return (
    <button type="submit" className="button button--primary" disabled={busy}>
      {busy && busyLabel !== undefined ? busyLabel : children}
    </button>
  );
}

/** A form's row of buttons holding its submit button alone (docs/user-guide.md). */
export function FormActions(props: SubmitButtonProps & { className?: string }) {
  const { className = "form__actions", ...button } = props;
  return (
    <div className={className}>
      <SubmitButton {...button} />
    </div>
  );
}
