import {
  type InputHTMLAttributes,
  type ReactNode,
  type TextareaHTMLAttributes,
  useId,
} from "react";

/** The labelled box every field is: `control` renders the control with the label's id. */
function LabelledField({
  label,
  className,
  control,
}: {
  label: string;
  className?: string | undefined;
  control: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={className ? `field ${className}` : "field"}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {control(id)}
    </div>
  );
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange"> {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/** A labelled text or password input. */
export function Field({ label, value, onChange, ...input }: FieldProps) {
  return (
    <LabelledField
      label={label}
      control={(id) => (
        <input
          {...input}
          id={id}
          className="field__input"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    />
  );
}

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "onChange"> {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/** A labelled text area (a note). */
export function TextAreaField({ label, value, onChange, ...area }: TextAreaFieldProps) {
  return (
    <LabelledField
      label={label}
      control={(id) => (
        <textarea
          {...area}
          id={id}
          className="field__input"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    />
  );
}

interface SelectFieldProps<T extends string | number> {
  label: string;
  options: readonly T[];
  value: T;
  onChange: (value: T) => void;
  /** The option's text; the value itself by default. */
  format?: (option: T) => string;
  /** Extra classes on the field, for layout. */
  className?: string;
}

/** A labelled select over a fixed list of values (symbols, timeframes, limits). */
export function SelectField<T extends string | number>({
  label,
  options,
  value,
  onChange,
  format = String,
  className,
}: SelectFieldProps<T>) {
  return (
    <LabelledField
      label={label}
      className={className}
      control={(id) => (
        <select
          id={id}
          className="field__input"
          value={String(value)}
          onChange={(event) => {
            const chosen = options.find((option) => String(option) === event.target.value);
            if (chosen !== undefined) onChange(chosen);
          }}
        >
          {options.map((option) => (
            <option key={String(option)} value={String(option)}>
              {format(option)}
            </option>
          ))}
        </select>
      )}
    />
  );
}

interface CheckboxProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  name?: string;
}

export function Checkbox({ label, checked, onChange, name }: CheckboxProps) {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        name={name}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span>{label}</span>
    </label>
  );
}
