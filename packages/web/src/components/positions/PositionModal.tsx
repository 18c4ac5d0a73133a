import type { FormEvent, ReactNode } from "react";
import type { LivePosition } from "../../hooks/positions/usePositions.ts";
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

/** What every dialog on one position is given: the position, and how to close the dialog. */
export interface PositionDialogProps {
  position: LivePosition;
  onClose: () => void;
}
