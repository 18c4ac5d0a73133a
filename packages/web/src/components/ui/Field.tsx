import {
  type ChangeEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type TextareaHTMLAttributes,
  useId,
} from "react";

/**
 * The labelled box every field is: `control` renders the control with the label's id (and
 * whatever goes under it, such as a hint or an error naming that id).
 */
export function LabelledField({
  label,
  className,
  control,
}: {
  label: ReactNode;
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

/** A text control's value, change handler (given the text) and class: an input's or a text area's. */
function textBinding(value: string, onChange: (value: string) => void) {
  return {
    className: "field__input",
    value,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      onChange(event.target.value),
  };
}

interface TextProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

type FieldProps = TextProps & Omit<InputHTMLAttributes<HTMLInputElement>, "onChange">;

/** A labelled text or password input. */
export function Field({ label, value, onChange, ...input }: FieldProps) {
  return (
    <LabelledField
      label={label}
      control={(id) => <input {...input} id={id} {...textBinding(value, onChange)} />}
    />
  );
}

type TextAreaFieldProps = TextProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "onChange">;

/** A labelled text area (a note). */
export function TextAreaField({ label, value, onChange, ...area }: TextAreaFieldProps) {
  return (
    <LabelledField
      label={label}
      control={(id) => <textarea {...area} id={id} {...textBinding(value, onChange)} />}
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
    <OptionsField
      label={label}
      className={className}
      value={String(value)}
      onChange={(text) => {
        const chosen = options.find((option) => String(option) === text);
        if (chosen !== undefined) onChange(chosen);
      }}
    >
      {options.map((option) => (
        <option key={String(option)} value={String(option)}>
          {format(option)}
        </option>
      ))}
    </OptionsField>
  );
}

interface OptionsFieldProps {
  label: string;
  value: string | undefined;
  onChange: (value: string) => void;
  /** The <option>s, in <optgroup>s where they are grouped. */
  children: ReactNode;
  className?: string | undefined;
}

/** A labelled select of the options it is given (SelectField gives it a fixed list's). */
export function OptionsField({ label, value, onChange, children, className }: OptionsFieldProps) {
  return (
    <LabelledField
      label={label}
      className={className}
      control={(id) => (
        <select
          id={id}
          className="field__input"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          {children}
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
