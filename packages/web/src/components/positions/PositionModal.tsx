import { type FormEvent, type ReactNode, useId } from "react";
import { useModalDialog } from "../../hooks/ui/useModalDialog.ts";

interface PositionModalProps {
  title: ReactNode;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
  /** data-testid-like name for the dialog, e.g. "open-position". */
  name: string;
}

/** The alert modal's native <dialog> shell, for the position forms (open, close, target/stop). */
export function PositionModal({ title, onClose, onSubmit, children, name }: PositionModalProps) {
  const titleId = useId();
  const dialog = useModalDialog();
  return (
    <dialog
      ref={dialog}
      className="modal position-modal"
      aria-labelledby={titleId}
      data-dialog={name}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <form className="modal__form" onSubmit={onSubmit} noValidate>
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {children}
      </form>
    </dialog>
  );
}
