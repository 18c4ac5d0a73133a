import { type FormEvent, useState } from "react";
import { usePositionChanges } from "../../hooks/positions/usePositions.ts";
import { useSubmissionKey } from "../../hooks/ui/useSubmissionKey.ts";
import { failureText } from "../../session/errors.ts";
import { DialogActions } from "../ui/DialogActions.tsx";
import { Field } from "../ui/Field.tsx";
import { Message } from "../ui/Message.tsx";
import { parsePrice } from "./checks.ts";
import { type EntryMode, EntryModeChoice } from "./EntryModeChoice.tsx";
import { signedRupees } from "./format.ts";
import { positionTitle, spreadText } from "./PositionFigures.tsx";
import { type PositionDialogProps, PositionModal } from "./PositionModal.tsx";

/** The server's refusal while a leg of the next contract has no fresh price (positions/roll.ts). */
const NO_LIVE_NEXT = /No live value on the next contract/;

/**
 * Rolling a position (docs/user-guide.md "Positions (paper)"): every lot closes at the live exit
 * (or, once the feed moved a leg past the contract held, at that contract's last mark) and the
 * same spread opens on the contracts each leg quotes after its own roll, at the live entry, a
 * typed one, or the formula at each leg's typed fill. Until the new contracts quote, the live
 * entry is refused: the dialog then asks for the typed one.
 */
export function RollPositionDialog({
  position,
  onClose,
  onRolled,
}: PositionDialogProps & { onRolled: (text: string) => void }) {
  const { view, moved } = position;
  // The feed already quotes the next contract: the one held has no live exit any more.
  const exit = moved && position.mark !== null ? position.mark : undefined;
  const legNames = Object.keys(view.legs);
  const [mode, setMode] = useState<EntryMode>("live");
  const [entry, setEntry] = useState("");
  const [fills, setFills] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const changes = usePositionChanges();
  const submission = useSubmissionKey();
  const one = view.lots === 1;
  const question =
    exit === undefined
      ? `${one ? "The lot closes" : `All ${view.lots} lots close`} at the live exit and the same spread opens on the next contract.`
      : `${moved?.instrument} now quotes ${moved?.to}: ${one ? "the lot" : `all ${view.lots} lots`} of ${moved?.from} ${one ? "closes" : "close"} at the last mark ${spreadText(exit)} and the spread opens again on ${moved?.to}.`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const request: { id: number; exit?: number; entry?: number; legs?: Record<string, number> } = {
      id: view.id,
      ...(exit !== undefined && { exit }),
    };
    if (mode === "typed") {
      const typed = parsePrice(entry, { positive: false });
      if (typed === undefined) return setError("Type the entry as a number, e.g. 131.25.");
      request.entry = typed;
    } else if (mode === "legs") {
      const legs: Record<string, number> = {};
      for (const name of legNames) {
        const fill = parsePrice(fills[name] ?? "", { positive: true });
        if (fill === undefined) return setError(`Type leg ${name}'s fill as a number above 0.`);
        legs[name] = fill;
      }
      request.legs = legs;
    }
    changes.roll.mutate(
      // One key per roll asked for: a second submit of the same roll is the same request.
      { ...request, idempotencyKey: submission.keyFor(request) },
      {
        onSuccess: (answer) => {
          submission.done();
          onRolled(
            `Rolled: closed ${answer.closed.lots} at ${spreadText(answer.closed.exit)} (realised ${signedRupees(answer.closed.realisedInr)}), opened ${positionTitle(answer.position)} at ${spreadText(answer.position.entry)}.`,
          );
        },
        onError: (failure) => {
          const text = failureText(failure, { fallback: "Failed to roll" });
          // The next contracts have no price yet: the entry has to be typed.
          if (mode === "live" && NO_LIVE_NEXT.test(text)) {
            setMode("typed");
            return setError(
              "The next contract has no live value yet: type the entry, or each leg's fill.",
            );
          }
          setError(text);
        },
      },
    );
  };

  const pending = changes.roll.isPending;
  return (
    <PositionModal
      title={`Roll ${positionTitle(view)}`}
      name="roll-position"
      onClose={onClose}
      onSubmit={submit}
    >
      <p className="position-modal__preview" data-field="roll-question">
        {question}
      </p>
      <EntryModeChoice
        name="roll-entry"
        legend="Entry on the next contract"
        mode={mode}
        onChange={setMode}
        labels={{
          live: "Live entry when you roll",
          typed: "An entry I type",
          legs: "Each leg's fill",
        }}
      />
      {mode === "typed" && (
        <Field label="Entry value" inputMode="decimal" value={entry} onChange={setEntry} />
      )}
      {mode === "legs" && (
        <p className="position-modal__preview muted">
          Each leg's price on the contract it quotes after the roll.
        </p>
      )}
      {mode === "legs" &&
        legNames.map((name) => (
          <Field
            key={name}
            label={`Fill of ${name} (${view.legs[name]?.instrument ?? name})`}
            inputMode="decimal"
            value={fills[name] ?? ""}
            onChange={(value) => setFills((now) => ({ ...now, [name]: value }))}
          />
        ))}
      {error && <Message tone="error">{error}</Message>}
      <DialogActions
        submit={pending ? "Rolling…" : "Roll position"}
        onCancel={onClose}
        busy={pending}
      />
    </PositionModal>
  );
}
