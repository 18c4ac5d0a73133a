import { type SoundId, soundLabel } from "@spreadwatch/core";
import { useId } from "react";
import { playAlertSound } from "../../alerts/sound.ts";
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

/** The Telegram notification limit select. */
export function LimitField({ label, options, value, onChange, format = String }: LimitFieldProps) {
  const id = useId();
  const shown = options.includes(value) ? options : [...options, value].sort((a, b) => a - b);
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="field__input"
        value={value}
        onChange={(event) => onChange(Number(event.target.value))}
      >
        {shown.map((limit) => (
          <option key={limit} value={limit}>
            {format(limit)}
          </option>
        ))}
      </select>
    </div>
  );
}
