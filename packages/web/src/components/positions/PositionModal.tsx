import type { FormEvent, ReactNode } from "react";
import { ModalForm } from "../ui/ModalForm.tsx";

interface PositionModalProps {
  title: ReactNode;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
  /** data-testid-like name for the dialog, e.g. "open-position". */
  name: string;
}

/** The modal form of the position dialogs (open, close, roll, target/stop), in their layout. */
export function PositionModal(props: PositionModalProps) {
  return <ModalForm {...props} className="position-modal" />;
}
