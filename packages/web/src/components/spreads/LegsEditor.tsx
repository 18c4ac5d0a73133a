import { MAX_LEGS } from "@spreadwatch/core";
import { type Column, TableHead } from "../ui/TableHead.tsx";
import type { InstrumentChoice } from "./templates.ts";

/** A leg as the form holds it: lots as typed, read when the form is sent. */
const COLUMNS: readonly Column[] = [
  { label: "Name", className: "legs-editor__col" },
  { label: "Instrument", className: "legs-editor__col" },
  { label: "Lots", className: "legs-editor__col" },
  { label: <span className="visually-hidden">Remove</span>, className: "legs-editor__col" },
];

export interface LegDraft {
  name: string;
  instrument: string;
  lots: string;
}

interface LegsEditorProps {
  legs: readonly LegDraft[];
  instruments: readonly InstrumentChoice[];
  onChange: (legs: LegDraft[]) => void;
  /** The leg a server sentence names, and the sentence. */
  error?: { leg?: number; text: string };
}

/** The next unused one-letter name: a, b, c … */
function freeName(legs: readonly LegDraft[]): string {
  const used = new Set(legs.map((leg) => leg.name));
  for (const letter of "abcdefghijklmnopqrstuvwxyz") if (!used.has(letter)) return letter;
  return `leg${legs.length + 1}`;
}

/**
 * The choices under their exchange, in catalogue order. The select shows the key alone and the
 * name goes beneath it: "GOLD@next · Gold MCX (next month)" is wider than a phone's leg row.
 */
function byExchange(instruments: readonly InstrumentChoice[]): [string, InstrumentChoice[]][] {
  const groups = new Map<string, InstrumentChoice[]>();
  for (const choice of instruments) {
    const group = groups.get(choice.exchange);
    if (group) group.push(choice);
    else groups.set(choice.exchange, [choice]);
  }
  return [...groups];
}

/** One to eight legs: the name the formula uses, the instrument, and lots for per-lot figures. */
export function LegsEditor({ legs, instruments, onChange, error }: LegsEditorProps) {
  const set = (index: number, patch: Partial<LegDraft>) =>
    onChange(legs.map((leg, i) => (i === index ? { ...leg, ...patch } : leg)));
  const nameOf = new Map(instruments.map((i) => [i.key, i.name]));
  const known = new Set(nameOf.keys());
  return (
    <fieldset className="legs-editor">
      <legend className="field__label">Legs</legend>
      <table className="legs-editor__table">
        <TableHead columns={COLUMNS} />
        <tbody>
          {legs.map((leg, index) => (
            // The index is the leg's identity here: legs have no id until saved.
            <tr key={index} data-leg={index} aria-invalid={error?.leg === index || undefined}>
              <td>
                <input
                  className="field__input legs-editor__name"
                  aria-label={`Leg ${index + 1} name`}
                  value={leg.name}
                  maxLength={16}
                  spellCheck={false}
                  autoCapitalize="off"
                  onChange={(event) => set(index, { name: event.target.value })}
                />
              </td>
              <td>
                <select
                  className="field__input"
                  aria-label={`Leg ${index + 1} instrument`}
                  value={leg.instrument}
                  onChange={(event) => set(index, { instrument: event.target.value })}
                >
                  {!known.has(leg.instrument) && (
                    <option value={leg.instrument}>{leg.instrument}</option>
                  )}
                  {byExchange(instruments).map(([exchange, choices]) => (
                    <optgroup key={exchange} label={exchange}>
                      {choices.map((choice) => (
                        <option key={choice.key} value={choice.key}>
                          {choice.key}
                        </option>
                      ))}
                    </optgroup>
                  ))}
                </select>
                <span className="legs-editor__instrument-name">{nameOf.get(leg.instrument)}</span>
              </td>
              <td>
                <input
                  className="field__input legs-editor__lots"
                  aria-label={`Leg ${index + 1} lots`}
                  inputMode="numeric"
                  placeholder="—"
                  value={leg.lots}
                  onChange={(event) => set(index, { lots: event.target.value.replace(/\D/g, "") })}
                />
              </td>
              <td>
                <button
                  type="button"
                  className="message__dismiss"
                  aria-label={`Remove leg ${index + 1}`}
                  disabled={legs.length <= 1}
                  onClick={() => onChange(legs.filter((_, i) => i !== index))}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && (
        <p className="field__error" role="alert" data-field="legs-error">
          {error.leg !== undefined ? `Leg ${error.leg + 1}: ${error.text}` : error.text}
        </p>
      )}
      <button
        type="button"
        className="button button--small"
        disabled={legs.length >= MAX_LEGS}
        onClick={() =>
          onChange([
            ...legs,
            { name: freeName(legs), instrument: instruments[0]?.key ?? "GOLD", lots: "" },
          ])
        }
      >
        Add leg
      </button>
    </fieldset>
  );
}
