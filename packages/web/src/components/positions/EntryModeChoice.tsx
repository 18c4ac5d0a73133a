import type { ReactNode } from "react";

/** How a position's entry is given: the live value, a typed spread value, or each leg's fill. */
export type EntryMode = "live" | "typed" | "legs";

const MODES: readonly EntryMode[] = ["live", "typed", "legs"];

/** The entry's three choices as radio buttons, for the Open and Roll dialogs alike. */
export function EntryModeChoice({
  name,
  legend,
  mode,
  onChange,
  labels,
}: {
  /** The radio group's name: one per dialog. */
  name: string;
  legend: string;
  mode: EntryMode;
  onChange: (mode: EntryMode) => void;
  labels: Readonly<Record<EntryMode, ReactNode>>;
}) {
  return (
    <fieldset className="position-modal__choice">
      <legend className="field__label">{legend}</legend>
      {MODES.map((choice) => (
        <label key={choice} className="checkbox">
          <input
            type="radio"
            name={name}
            checked={mode === choice}
            onChange={() => onChange(choice)}
          />
          <span>{labels[choice]}</span>
        </label>
      ))}
    </fieldset>
  );
}
