import { useMemo } from "react";
import { Field, SelectField } from "../ui/Field.tsx";
import {
  type InstrumentChoice,
  MONTHS,
  parityFactorFor,
  TEMPLATE_KINDS,
  TEMPLATE_LABELS,
  type TemplateChoices,
  type TemplateKind,
  templateOptions,
} from "./templates.ts";

interface TemplatePickerProps {
  kind: TemplateKind;
  choices: TemplateChoices;
  instruments: readonly InstrumentChoice[];
  onKind: (kind: TemplateKind) => void;
  onChoices: (choices: TemplateChoices) => void;
  onApply: () => void;
  /** Why the template cannot write a definition with these choices. */
  problem?: string;
}

/** A template and its few choices; "Fill in" writes the legs, the formula and a name. */
export function TemplatePicker(props: TemplatePickerProps) {
  const { kind, choices, onChoices } = props;
  const options = useMemo(() => templateOptions(props.instruments), [props.instruments]);
  const pick = (key: keyof TemplateChoices, label: string, list: readonly string[]) => (
    <SelectField
      label={label}
      className="template__field"
      options={list.includes(choices[key]) ? list : [choices[key], ...list]}
      value={choices[key]}
      onChange={(value) => onChoices({ ...choices, [key]: value })}
    />
  );
  return (
    <fieldset className="template" aria-label="Template choices">
      <SelectField
        label="Template"
        className="template__kind"
        options={TEMPLATE_KINDS}
        value={kind}
        onChange={props.onKind}
        format={(k) => TEMPLATE_LABELS[k]}
      />
      <div className="template__fields">
        {kind === "calendar" && (
          <>
            {pick("root", "Future", options.roots)}
            {pick("first", "First month", MONTHS)}
            {pick("second", "Second month", MONTHS)}
          </>
        )}
        {kind === "parity" && (
          <>
            <SelectField
              label="MCX future"
              className="template__field"
              options={options.mcxFutures}
              value={choices.mcx}
              // The built-ins' unit factor comes with their MCX future; any other starts at 1.
              onChange={(mcx) => onChoices({ ...choices, mcx, factor: parityFactorFor(mcx) })}
            />
            {pick("cme", "CME future", options.cmeFutures)}
            <Field
              label="Unit factor"
              value={choices.factor}
              onChange={(factor) => onChoices({ ...choices, factor })}
            />
            <Field
              label="Duty"
              inputMode="decimal"
              value={choices.duty}
              onChange={(duty) => onChoices({ ...choices, duty })}
            />
          </>
        )}
        {kind === "ratio" && (
          <>
            {pick("a", "Numerator", options.all)}
            {pick("b", "Denominator", options.all)}
          </>
        )}
        {kind === "mini" && (
          <>
            {pick("mini", "Mini", options.futures)}
            {pick("big", "Big", options.futures)}
          </>
        )}
        {kind === "basis" && (
          <>
            {pick("future", "Future", options.futures)}
            {pick("spot", "Spot", options.singles)}
          </>
        )}
      </div>
      {props.problem && (
        <p className="field__error" role="alert">
          {props.problem}
        </p>
      )}
      <button type="button" className="button button--small" onClick={props.onApply}>
        Fill in legs and formula
      </button>
    </fieldset>
  );
}
