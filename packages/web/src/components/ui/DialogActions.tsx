import type { ReactNode } from "react";
import { SubmitButton } from "./SubmitButton.tsx";

interface DialogActionsProps {
  /** The submit button's text. */
  submit: ReactNode;
  /** Cancel's handler; without it (and `secondary`) the dialog offers its submit button alone. */
  onCancel?: (() => void) | undefined;
  /** While a request is under way the submit button (and Delete) wait. */
  busy?: boolean;
  /** Delete's handler: a Delete button apart on the left (editing, not creating, offers it). */
  onDelete?: (() => void) | undefined;
  /** More buttons kept apart on the left, after Delete: Delete All. */
  aside?: ReactNode;
  /** In Cancel's place: e.g. a link on after a dialog has done its work. */
  secondary?: ReactNode;
}

/**
 * A dialog's buttons (docs/user-guide.md): Cancel and the primary submit button together on the
 * right, wrapping together, never one without the other; destructive ones apart on the left.
 */
export function DialogActions({
  submit,
  onCancel,
  busy = false,
  onDelete,
  aside,
  secondary,
}: DialogActionsProps) {
  return (
    <div className="modal__actions">
      {(onDelete || aside) && (
        <div className="modal__action-group">
          {onDelete && (
            <DangerButton onClick={onDelete} busy={busy}>
              Delete
            </DangerButton>
          )}
          {aside}
        </div>
      )}
      <div className="modal__action-group modal__action-group--main">
        {secondary ??
          (onCancel && (
            <button type="button" className="button" onClick={onCancel}>
              Cancel
            </button>
          ))}
        <SubmitButton busy={busy}>{submit}</SubmitButton>
      </div>
    </div>
  );
}

/** A destructive button of a dialog's `aside`. */
export function DangerButton({
  onClick,
  busy = false,
  children,
}: {
  onClick: () => void;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="button" className="button button--danger" onClick={onClick} disabled={busy}>
      {children}
    </button>
  );
}
