import { type FormEvent, type ReactNode, useId } from "react";
import { useModalDialog } from "../../hooks/ui/useModalDialog.ts";

interface ModalFormProps {
  title: ReactNode;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
  /** Classes beside "modal", for the form's own layout. */
  className?: string;
  /** A name for tests and styles on the dialog (data-dialog), e.g. "open-position". */
  name?: string;
  /** Name the form by the title too (a form landmark), as the spread builder's is. */
  namedForm?: boolean;
}

/**
 * A form in a native modal <dialog> (useModalDialog: Escape, focus trapping, focus returned),
 * named by its title. Escape asks `onClose` rather than closing the dialog itself, so the screen
 * that opened it decides (it unmounts it).
 */
export function ModalForm({
  title,
  onClose,
  onSubmit,
  children,
  className,
  name,
  namedForm = false,
}: ModalFormProps) {
  const titleId = useId();
  const dialog = useModalDialog();
  return (
    <dialog
      ref={dialog}
      className={className ? `modal ${className}` : "modal"}
      aria-labelledby={titleId}
      data-dialog={name}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <form
        className="modal__form"
        onSubmit={onSubmit}
        noValidate
        aria-labelledby={namedForm ? titleId : undefined}
      >
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {children}
      </form>
    </dialog>
  );
}
