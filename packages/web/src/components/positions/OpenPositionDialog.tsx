import type { PositionSide } from "@spreadwatch/core";
import { type FormEvent, useId, useMemo, useState } from "react";
import {
  type SpreadDefinitionView,
  useSpreadDefinitions,
} from "../../hooks/market/useSpreadDefinitions.ts";
import { usePositionChanges } from "../../hooks/positions/usePositions.ts";
import { useSubmissionKey } from "../../hooks/ui/useSubmissionKey.ts";
import { definitionEntry } from "../../market/definitionRows.ts";
import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";
import { ScreenLink } from "../app/ScreenLink.tsx";
import { DialogActions } from "../ui/DialogActions.tsx";
import { Field, TextAreaField } from "../ui/Field.tsx";
import { Message } from "../ui/Message.tsx";
import { checkLots, checkNote, errorAfterLots, parsePrice } from "./checks.ts";
import { type EntryMode, EntryModeChoice } from "./EntryModeChoice.tsx";
import { spreadText } from "./PositionFigures.tsx";
import { PositionModal } from "./PositionModal.tsx";
import { PreviewFigure, PreviewLine } from "./PreviewLine.tsx";

/**
 * The calculations the screen's stream keeps in the `market.snapshot` cache: read, never fetched
 * here, so the form adds no request and no second stream to the screen that opened it.
 */
function useLiveCalculations(): Record<string, unknown> | undefined {
  const snapshot = trpc.market.snapshot.useQuery(undefined, { enabled: false });
  return snapshot.data?.calculations as Record<string, unknown> | undefined;
}

interface OpenPositionDialogProps {
  /** The spread the action came from ("GC"), and the side if a row was a side ("GC_BUY"). */
  spread?: string;
  side?: PositionSide;
  onClose: () => void;
}

/** Built-in parities and the user's definitions: the mid-only built-ins have no side to trade. */
export function tradable(spreads: readonly SpreadDefinitionView[]): SpreadDefinitionView[] {
  const parities = new Set(["GC", "SI", "HG", "NG", "CL"]);
  return spreads.filter((spread) => !spread.builtin || parities.has(spread.symbol));
}

/**
 * Opening a position (docs/user-guide.md "Positions (paper)"): a record of a trade, never an order.
 * Entry is the live executable value the server holds when the request lands (BUY at
 * `<spread>_BUY`), a typed spread value, or each leg's own fill price.
 */
export function OpenPositionDialog(props: OpenPositionDialogProps) {
  const { spreads } = useSpreadDefinitions();
  const choices = useMemo(() => tradable(spreads), [spreads]);
  const [spread, setSpread] = useState(props.spread ?? "GC");
  const [side, setSide] = useState<PositionSide>(props.side ?? "BUY");
  const [lots, setLots] = useState("1");
  const [mode, setMode] = useState<EntryMode>("live");
  const [typed, setTyped] = useState("");
  const [legPrices, setLegPrices] = useState<Record<string, string>>({});
  const [note, setNote] = useState("");
  const [error, setError] = useState<string>();
  const [opened, setOpened] = useState<string>();
  const changes = usePositionChanges();
  const submission = useSubmissionKey();
  const ids = { spread: useId() };
  const definition = choices.find((each) => each.symbol === spread);
  const symbol = `${spread}_${side}`;
  const calculations = useLiveCalculations();
  const live = calculations ? definitionEntry(calculations, symbol)?.spread : undefined;
  const liveText = live === undefined ? "no live value right now" : spreadText(live);
  const pending = changes.open.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const lotCount = checkLots(lots);
    if (typeof lotCount === "string") return setError(lotCount);
    const noteError = checkNote(note);
    if (noteError) return setError(noteError);
    const request: Record<string, unknown> = { spread, side, lots: lotCount };
    if (note.trim()) request.note = note.trim();
    if (mode === "typed") {
      const entry = parsePrice(typed, { positive: false });
      if (entry === undefined) return setError("Type the entry as a number, e.g. 125.50.");
      request.entry = entry;
    }
    if (mode === "legs") {
      const legs: Record<string, number> = {};
      for (const leg of definition?.legs ?? []) {
        const price = parsePrice(legPrices[leg.name] ?? "", { positive: true });
        if (price === undefined) {
          return setError(`Type ${leg.name} (${leg.instrument})'s fill price, a number above 0.`);
        }
        legs[leg.name] = price;
      }
      request.legs = legs;
    }
    // A double click lands before the button is disabled; the key makes it one position.
    const idempotencyKey = submission.keyFor(request);
    changes.open.mutate(
      { ...(request as { spread: string; side: PositionSide; lots: number }), idempotencyKey },
      {
        onSuccess: (position) => {
          submission.done();
          const at = spreadText(position.entry);
          setOpened(`${position.side} ${position.lots} × ${position.name} at ${at}`);
        },
        onError: (failure) =>
          setError(failureText(failure, { fallback: "Failed to open the position" })),
      },
    );
  };

  if (opened) {
    return (
      <PositionModal
        title="Position opened"
        name="open-position"
        onClose={props.onClose}
        onSubmit={props.onClose}
      >
        <Message tone="success">Opened {opened}. No order was sent to any broker.</Message>
        <DialogActions
          submit="Done"
          secondary={
            // The form lives above the screens: it closes as the link leaves for Positions.
            <ScreenLink href="/positions" className="button" onClick={props.onClose}>
              View positions
            </ScreenLink>
          }
        />
      </PositionModal>
    );
  }

  return (
    <PositionModal
      title={
        <>
          Open position <span className="modal__symbol">{symbol}</span>
        </>
      }
      name="open-position"
      onClose={props.onClose}
      onSubmit={submit}
    >
      <p className="muted position-modal__note">
        A paper record of a trade: no order is sent to any broker.
      </p>
      <div className="field">
        <label className="field__label" htmlFor={ids.spread}>
          Spread
        </label>
        <select
          id={ids.spread}
          className="field__input"
          value={spread}
          onChange={(event) => setSpread(event.target.value)}
        >
          {choices.map((each) => (
            <option key={each.symbol} value={each.symbol}>
              {each.name} ({each.symbol})
            </option>
          ))}
          {!definition && <option value={spread}>{spread}</option>}
        </select>
      </div>
      <fieldset className="position-modal__choice">
        <legend className="field__label">Side</legend>
        {(["BUY", "SELL"] as const).map((each) => (
          <label key={each} className="checkbox">
            <input
              type="radio"
              name="side"
              value={each}
              checked={side === each}
              onChange={() => setSide(each)}
            />
            <span>{each === "BUY" ? "Buy the spread" : "Sell the spread"}</span>
          </label>
        ))}
      </fieldset>
      <Field
        label="Lots"
        inputMode="numeric"
        value={lots}
        onChange={(value) => {
          setLots(value);
          setError((now) => errorAfterLots(now, value));
        }}
      />
      <OpenPreview spread={spread} side={side} lots={lots} />
      <EntryModeChoice
        name="entry"
        legend="Entry"
        mode={mode}
        onChange={setMode}
        labels={{
          live: (
            <>
              Live value when you open it{" "}
              <span className="position-modal__live" data-field="live-value">
                ({symbol} now {liveText})
              </span>
            </>
          ),
          typed: "A spread value I type",
          legs: "Each leg's fill price",
        }}
      />
      {mode === "typed" && (
        <Field
          label="Entry value"
          inputMode="decimal"
          value={typed}
          placeholder={live === undefined ? "e.g. 125.50" : liveText}
          onChange={setTyped}
        />
      )}
      {mode === "legs" &&
        (definition?.legs ?? []).map((leg) => (
          <LegPriceField
            key={leg.name}
            label={`${leg.name} (${leg.instrument}) fill price`}
            value={legPrices[leg.name] ?? ""}
            onChange={(value) => setLegPrices({ ...legPrices, [leg.name]: value })}
          />
        ))}
      <TextAreaField label="Note" rows={2} maxLength={500} value={note} onChange={setNote} />
      {error && <Message tone="error">{error}</Message>}
      <DialogActions
        submit={pending ? "Opening…" : "Open position"}
        onCancel={props.onClose}
        busy={pending}
      />
    </PositionModal>
  );
}

function LegPriceField(props: { label: string; value: string; onChange: (value: string) => void }) {
  return <Field inputMode="decimal" {...props} />;
}

/** The preview follows the market while the form is open, no faster than the positions list. */
const PREVIEW_REFETCH_MS = 10_000;

/**
 * Margin and round-trip costs of these lots before Open (or before a ticket is sent): the
 * server's preview, by the margin source (Kite's basket margins while Kite is linked) and cost
 * model the position is then valued with (README "Positions (paper)").
 *
 * Only the answer for these very lots, spread and side is shown. While it is on its way the
 * figures read "…" with an empty data-value: another lot count's margin kept on screen would
 * read as this one's (a two-lot margin under "1"), and on a loaded machine that answer can take
 * seconds (docs/user-guide.md "Positions (paper)").
 */
export function OpenPreview({
  spread,
  side,
  lots,
}: {
  spread: string;
  side: PositionSide;
  lots: string;
}) {
  const count = checkLots(lots);
  const valid = typeof count === "number";
  const preview = trpc.positions.preview.useQuery(
    { spread, side, lots: valid ? count : 1 },
    { enabled: valid, refetchInterval: PREVIEW_REFETCH_MS },
  );
  // Pending: no answer for this key yet (a refetch keeps the key's own last answer meanwhile).
  const updating = valid && preview.isPending;
  const data = valid ? preview.data : undefined;
  const margin = data?.margin;
  return (
    <PreviewLine field="open-preview" updating={updating}>
      Margin <PreviewFigure field="margin-preview" value={margin?.inr} updating={updating} />
      {margin && ` (${margin.source === "kite" ? "Kite" : "configured rates"})`} · costs{" "}
      <PreviewFigure field="costs-preview" value={data?.costsInr} updating={updating} /> round trip
    </PreviewLine>
  );
}
