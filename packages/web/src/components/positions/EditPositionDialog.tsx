import { type FormEvent, useState } from "react";
import { usePositionChanges } from "../../hooks/positions/usePositions.ts";
import { failureText } from "../../session/errors.ts";
import { DialogActions } from "../ui/DialogActions.tsx";
import { Field, TextAreaField } from "../ui/Field.tsx";
import { Message } from "../ui/Message.tsx";
import { checkNote, parsePrice } from "./checks.ts";
import { positionTitle } from "./PositionFigures.tsx";
import { type PositionDialogProps, PositionModal } from "./PositionModal.tsx";

/** An optional ₹ figure: blank is none, else a finite number; a string says what is wrong. */
function optionalInr(text: string, label: string): number | null | string {
  if (text.trim() === "") return null;
  return (
    parsePrice(text, { positive: false }) ?? `${label} must be a number of rupees, e.g. 12000.`
  );
}

/**
 * Target and stop on the position's net ₹ (they fire through the alert channels, docs/user-guide.md
 * "Positions (paper)"), the note, and deleting a position opened by mistake.
 */
export function EditPositionDialog({ position, onClose }: PositionDialogProps) {
  const { view } = position;
  const [target, setTarget] = useState(view.targetInr === null ? "" : String(view.targetInr));
  const [stop, setStop] = useState(view.stopInr === null ? "" : String(view.stopInr));
  const [note, setNote] = useState(view.note);
  const [error, setError] = useState<string>();
  const changes = usePositionChanges();
  const pending = changes.patch.isPending || changes.remove.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const targetInr = optionalInr(target, "The target");
    if (typeof targetInr === "string") return setError(targetInr);
    const stopInr = optionalInr(stop, "The stop");
    if (typeof stopInr === "string") return setError(stopInr);
    if (targetInr !== null && stopInr !== null && targetInr <= stopInr) {
      return setError("The target must be above the stop.");
    }
    const noteError = checkNote(note);
    if (noteError) return setError(noteError);
    changes.patch.mutate(
      { id: view.id, targetInr, stopInr, note: note.trim() },
      {
        onSuccess: onClose,
        onError: (failure) =>
          setError(failureText(failure, { fallback: "Failed to save the position" })),
      },
    );
  };

  const remove = () => {
    if (
      !window.confirm(
        `Delete ${positionTitle(view)}? It will be gone from your records, closes included.`,
      )
    )
      return;
    changes.remove.mutate(
      { id: view.id },
      {
        onSuccess: onClose,
        onError: (failure) =>
          setError(failureText(failure, { fallback: "Failed to delete the position" })),
      },
    );
  };

  return (
    <PositionModal
      title={positionTitle(view)}
      name="edit-position"
      onClose={onClose}
      onSubmit={submit}
    >
      <Field
        label="Target, net ₹"
        inputMode="decimal"
        placeholder="none"
        value={target}
        onChange={setTarget}
      />
      <Field
        label="Stop, net ₹"
        inputMode="decimal"
        placeholder="none"
        value={stop}
        onChange={setStop}
      />
      <p className="muted position-modal__note">
        Each fires once when the position's net ₹ crosses it, through your alert channels (browser,
        Telegram, webhook, History).
      </p>
      <TextAreaField label="Note" rows={2} maxLength={500} value={note} onChange={setNote} />
      {error && <Message tone="error">{error}</Message>}
      <DialogActions submit="Save" onCancel={onClose} busy={pending} onDelete={remove} />
    </PositionModal>
  );
}
