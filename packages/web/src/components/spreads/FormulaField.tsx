import { MAX_FORMULA_LENGTH } from "@spreadwatch/core";
import type { RefObject } from "react";
import { LabelledField } from "../ui/Field.tsx";

interface FormulaFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** The server's sentence about the formula, shown under it. */
  error?: string;
  /** Its 1-based position, marked in the copy of the formula under the field. */
  position?: number;
  inputRef: RefObject<HTMLInputElement | null>;
}

/**
 * The formula, typed (docs/formulas.md lists what it may contain). A 400 from the server shows
 * under it, and the character it names is marked in a copy of the formula, so a long formula's
 * mistake is found without counting.
 */
export function FormulaField({ value, onChange, error, position, inputRef }: FormulaFieldProps) {
  return (
    <LabelledField
      label="Formula"
      className="formula-field"
      control={(id) => (
        <>
          <input
            ref={inputRef}
            id={id}
            className="field__input formula-field__input"
            value={value}
            maxLength={MAX_FORMULA_LENGTH}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            placeholder="e.g. a - b, a / b, m - c * (10 / TROY_OUNCE_GRAMS) * fx * 1.06"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
            onChange={(event) => onChange(event.target.value)}
          />
          {error ? (
            <div className="formula-field__error" id={`${id}-error`} role="alert">
              <p className="formula-field__message" data-field="formula-error">
                {error}
              </p>
              {position !== undefined && <MarkedFormula text={value} position={position} />}
            </div>
          ) : (
            <p className="field__hint" id={`${id}-hint`}>
              The legs' names, numbers, + − * /, parentheses, min, max, abs and the constants
              TROY_OUNCE_GRAMS, GRAMS_PER_KG, POUNDS_PER_KG.
            </p>
          )}
        </>
      )}
    />
  );
}

const WORD = /[\w$]/;

/**
 * The formula with what starts at `position` marked: the whole name when a name starts there
 * (`constructor`), else the one character; a blank past the end when the formula ran out.
 */
function MarkedFormula({ text, position }: { text: string; position: number }) {
  const at = Math.max(0, position - 1);
  let end = at + 1;
  if (WORD.test(text.charAt(at))) while (end < text.length && WORD.test(text.charAt(end))) end++;
  const before = text.slice(0, at);
  const marked = text.slice(at, end);
  const after = text.slice(end);
  return (
    <code className="formula-field__marked" data-position={position}>
      {before}
      <mark className="formula-field__mark">{marked === "" ? "\u00a0" : marked}</mark>
      {after}
    </code>
  );
}
