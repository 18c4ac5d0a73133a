import { realisedInr } from "@spreadwatch/core";
import { type FormEvent, useState } from "react";
import { type LivePosition, usePositionChanges } from "../../hooks/positions/usePositions.ts";
import { useSubmissionKey } from "../../hooks/ui/useSubmissionKey.ts";
import { failureText } from "../../session/errors.ts";
import { DialogActions } from "../ui/DialogActions.tsx";
import { Field } from "../ui/Field.tsx";
import { Message } from "../ui/Message.tsx";
import { checkLots, errorAfterLots, parsePrice } from "./checks.ts";
import { signedRupees } from "./format.ts";
import { positionTitle, Rupees, spreadText } from "./PositionFigures.tsx";
import { type PositionDialogProps, PositionModal } from "./PositionModal.tsx";

/**
 * Closing all or some lots at the live exit (the server's, when the request lands) or a typed
 * price; the answer's realised ₹ stays on screen until Done.
 */
export function ClosePositionDialog({ position, onClose }: PositionDialogProps) {
  const { view } = position;
  const [lots, setLots] = useState(String(view.lots));
  const [typedMode, setTypedMode] = useState(false);
  const [price, setPrice] = useState("");
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<{ lots: number; exit: number; realisedInr: number }>();
  const changes = usePositionChanges();
  const submission = useSubmissionKey();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (result) return onClose();
    setError(undefined);
    const count = checkLots(lots, view.lots);
    if (typeof count === "string") return setError(count);
    const request: { id: number; lots: number; price?: number } = { id: view.id, lots: count };
    if (typedMode) {
      const typed = parsePrice(price, { positive: false });
      if (typed === undefined) return setError("Type the exit as a number, e.g. 131.25.");
      request.price = typed;
    }
    changes.close.mutate(
      { ...request, idempotencyKey: submission.keyFor(request) },
      {
        onSuccess: (answer) => {
          submission.done();
          setResult(answer.closed);
        },
        onError: (failure) =>
          setError(failureText(failure, { fallback: "Failed to close the position" })),
      },
    );
  };

  if (result) {
    return (
      <PositionModal
        title="Position closed"
        name="close-position"
        onClose={onClose}
        onSubmit={submit}
      >
        <Message tone="success">
          Closed {result.lots} {result.lots === 1 ? "lot" : "lots"} of {view.side} {view.name} at{" "}
          {spreadText(result.exit)}: realised{" "}
          <strong data-field="realised" data-value={result.realisedInr}>
            {signedRupees(result.realisedInr)}
          </strong>
          .
        </Message>
        <DialogActions submit="Done" />
      </PositionModal>
    );
  }

  const pending = changes.close.isPending;
  return (
    <PositionModal
      title={`Close ${positionTitle(view)}`}
      name="close-position"
      onClose={onClose}
      onSubmit={submit}
    >
      <Field
        label={`Lots to close (of ${view.lots})`}
        inputMode="numeric"
        value={lots}
        onChange={(value) => {
          setLots(value);
          setError((now) => errorAfterLots(now, value, view.lots));
        }}
      />
      <fieldset className="position-modal__choice">
        <legend className="field__label">Exit</legend>
        <label className="checkbox">
          <input
            type="radio"
            name="exit"
            checked={!typedMode}
            onChange={() => setTypedMode(false)}
          />
          <span>
            Live exit when you close{" "}
            <span className="position-modal__live">
              ({view.markSymbol} now {spreadText(position.mark)}
              {position.stale ? ", stale" : ""})
            </span>
          </span>
        </label>
        <label className="checkbox">
          <input type="radio" name="exit" checked={typedMode} onChange={() => setTypedMode(true)} />
          <span>A price I type</span>
        </label>
      </fieldset>
      {typedMode && (
        <Field
          label="Exit value"
          inputMode="decimal"
          value={price}
          placeholder={spreadText(position.mark)}
          onChange={setPrice}
        />
      )}
      <RealisedPreview position={position} lots={lots} typed={typedMode ? price : undefined} />
      {error && <Message tone="error">{error}</Message>}
      <DialogActions
        submit={pending ? "Closing…" : "Close position"}
        onCancel={onClose}
        busy={pending}
      />
    </PositionModal>
  );
}

/**
 * What closing these lots would realise at the live exit (or the typed one), with core's
 * realisedInr and the position's own per-lot costs: the server's answer for the same numbers.
 */
function RealisedPreview({
  position,
  lots,
  typed,
}: {
  position: LivePosition;
  lots: string;
  /** The typed exit while "A price I type" is chosen. */
  typed: string | undefined;
}) {
  const { view } = position;
  const count = checkLots(lots, view.lots);
  const exit = typed === undefined ? position.mark : parsePrice(typed, { positive: false });
  const costsPerLot = view.costsInr !== null && view.lots > 0 ? view.costsInr / view.lots : null;
  const realised =
    typeof count === "number" && exit !== null && exit !== undefined && costsPerLot !== null
      ? realisedInr(view.side, view.entry, exit, view.units, count, costsPerLot)
      : undefined;
  return (
    <p className="position-modal__preview" data-field="realised-preview" aria-live="polite">
      Realised ₹ if closed {typed === undefined ? "now" : "there"}:{" "}
      {realised === undefined ? (
        <span className="muted">—</span>
      ) : (
        <Rupees value={realised} field="realised-preview-inr" />
      )}
      {realised !== undefined && exit !== null && exit !== undefined && (
        <span className="muted">
          {" "}
          ({count} {count === 1 ? "lot" : "lots"} at {spreadText(exit)}, after costs)
        </span>
      )}
    </p>
  );
}
