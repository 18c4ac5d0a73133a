import { type SoundId, soundLabel } from "@spreadwatch/core";
import { useId } from "react";
import { playAlertSound } from "../../alerts/sound.ts";
import { SelectField } from "../ui/Field.tsx";
import { SpeakerIcon } from "./icons.tsx";

interface SoundFieldProps {
  label: string;
  options: readonly SoundId[];
  value: SoundId;
  onChange: (value: SoundId) => void;
}

/** A sound select with the test-speaker button beside it. */
export function SoundField({ label, options, value, onChange }: SoundFieldProps) {
  const id = useId();
  // An alert made in the panel may use a sound the modal does not offer; keep it selectable.
  const shown = options.includes(value) ? options : [...options, value];
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="field__row">
        <select
          id={id}
          className="field__input"
          value={value}
          onChange={(event) => onChange(event.target.value as SoundId)}
        >
          {shown.map((sound) => (
            <option key={sound} value={sound}>
              {soundLabel(sound)}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button icon-button"
          aria-label="Test sound"
          title="Test sound"
          onClick={() => void playAlertSound(value)}
        >
          <SpeakerIcon />
        </button>
      </div>
    </div>
  );
}

interface LimitFieldProps {
  label: string;
  options: readonly number[];
  value: number;
  onChange: (value: number) => void;
  format?: (limit: number) => string;
}

/** The Telegram notification limit select; a stored limit outside `options` stays selectable. */
export function LimitField({ label, options, value, onChange, format = String }: LimitFieldProps) {
  const shown = options.includes(value) ? options : [...options, value].sort((a, b) => a - b);
  return (
    <SelectField label={label} options={shown} value={value} onChange={onChange} format={format} />
  );
}
