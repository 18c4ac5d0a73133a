import { useEffect, useRef } from "react";
import { sanitizeThreshold } from "../../alerts/threshold.ts";
import { LabelledField } from "../ui/Field.tsx";

interface ThresholdFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  autoFocus?: boolean;
}

/**
 * The threshold input (docs/spec.md §5): a keystroke that would put anything but an optional leading
 * minus, digits and one point into the field is refused before it lands, so the caret stays
 * put; whatever arrives otherwise (a paste, autofill, drag and drop) is cleaned on change.
 */
export function ThresholdField({
  label,
  value,
  onChange,
  placeholder,
  autoFocus,
}: ThresholdFieldProps) {
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const element = input.current;
    if (!element) return;
    const refuse = (event: InputEvent) => {
      // Typing only: a paste is let in and cleaned on change, so "1,234.50" becomes "1234.50".
      if (event.data?.length !== 1 || !event.inputType.startsWith("insert")) return;
      const start = element.selectionStart ?? element.value.length;
      const end = element.selectionEnd ?? start;
      const next = element.value.slice(0, start) + event.data + element.value.slice(end);
      if (sanitizeThreshold(next) !== next) event.preventDefault();
    };
    element.addEventListener("beforeinput", refuse);
    return () => element.removeEventListener("beforeinput", refuse);
  }, []);

  return (
    <LabelledField
      label={label}
      control={(id) => (
        <input
          ref={input}
          id={id}
          className="field__input field__input--num"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder}
          // biome-ignore lint/a11y/noAutofocus: the modal opens to type a threshold
          autoFocus={autoFocus}
          value={value}
          onChange={(event) => onChange(sanitizeThreshold(event.target.value))}
        />
      )}
    />
  );
}
