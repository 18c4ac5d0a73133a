import type { RouterInputs } from "@spreadwatch/api";
import {
  CURRENCIES,
  EXCHANGES,
  MONTH_SELECTORS,
  type MonthSelector,
  PROVIDER_KINDS,
  type ProviderKind,
} from "@spreadwatch/core";
import { useId } from "react";
import { Field, SelectField } from "../ui/Field.tsx";

type AddInput = RouterInputs["instruments"]["add"];

export interface CustomForm {
  key: string;
  exchange: (typeof EXCHANGES)[number];
  name: string;
  unit: string;
  currency: (typeof CURRENCIES)[number];
  lotUnits: string;
  tick: string;
  decimals: string;
  month: MonthSelector | "none";
  provider: ProviderKind | "none";
  symbol: string;
}

export const CUSTOM_EMPTY: CustomForm = {
  key: "",
  exchange: "MCX",
  name: "",
  unit: "",
  currency: "INR",
  lotUnits: "",
  tick: "",
  decimals: "2",
  month: "near",
  provider: "none",
  symbol: "",
};

/** A number field's value: left out when empty (the server names it as missing), else Number(). */
function numberOf(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text.trim());
}

/** The add request for a custom instrument; the server judges every field. */
export function customInput(form: CustomForm): AddInput {
  const input: Record<string, unknown> = {
    key: form.key.trim().toUpperCase(),
    exchange: form.exchange,
    name: form.name.trim(),
    unit: form.unit.trim(),
    currency: form.currency,
    lotUnits: numberOf(form.lotUnits),
    tick: numberOf(form.tick),
    decimals: numberOf(form.decimals),
    month: form.month === "none" ? null : form.month,
  };
  if (form.provider !== "none") {
    input.source = { provider: form.provider, symbol: form.symbol.trim() };
  }
  return input as AddInput;
}

type TextKey = "key" | "name" | "unit" | "lotUnits" | "tick" | "decimals" | "symbol";
type ChoiceKey = Exclude<keyof CustomForm, TextKey>;

interface CustomFieldsProps {
  form: CustomForm;
  onChange: (form: CustomForm) => void;
  /** The field the server's last refusal named (`lotUnits`, `source.symbol`). */
  invalid: string | undefined;
}

/** Every field of an instrument the catalogue does not ship, and where a provider finds it. */
export function CustomFields({ form, onChange, invalid }: CustomFieldsProps) {
  const hint = useId();
  const set =
    <K extends keyof CustomForm>(key: K) =>
    (value: CustomForm[K]) =>
      onChange({ ...form, [key]: value });
  const marks = (name: string) =>
    invalid === name ? { "aria-invalid": true, "aria-describedby": hint } : {};
  // A text field bound to its key of the form, marked when the server's refusal names it.
  const bound = (key: TextKey, refusalName: string = key) => ({
    name: key,
    value: form[key],
    onChange: set(key),
    ...marks(refusalName),
  });
  // A select bound to its key of the form.
  const chosen = <K extends ChoiceKey>(key: K) => ({ value: form[key], onChange: set(key) });
  return (
    <div className="add-instrument__custom">
      <p id={hint} className="muted add-instrument__hint">
        Key: letters, digits, . _ - (ROOT, or ROOT@next / ROOT@far for another month).
      </p>
      <div className="form__row">
        <Field
          label="Key"
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          {...bound("key")}
        />
        <SelectField label="Exchange" options={EXCHANGES} {...chosen("exchange")} />
      </div>
      <Field label="Name" {...bound("name")} />
      <div className="form__row">
        <Field label="Quote unit" placeholder="INR / kg" {...bound("unit")} />
        <SelectField label="Currency" options={CURRENCIES} {...chosen("currency")} />
      </div>
      <div className="form__row form__row--three">
        <Field label="Units per lot" inputMode="decimal" {...bound("lotUnits")} />
        <Field label="Tick" inputMode="decimal" {...bound("tick")} />
        <Field label="Decimals" inputMode="numeric" {...bound("decimals")} />
      </div>
      <SelectField
        label="Contract month"
        options={["none", ...MONTH_SELECTORS] as const}
        {...chosen("month")}
        format={(m) => (m === "none" ? "None (spot, index, FX)" : m)}
      />
      <div className="form__row">
        <SelectField
          label="Provider"
          options={["none", ...PROVIDER_KINDS] as const}
          {...chosen("provider")}
          format={(p) => (p === "none" ? "By exchange" : p)}
        />
        <Field
          label="Provider symbol"
          autoComplete="off"
          spellCheck={false}
          placeholder="GOLDM, GC=F"
          disabled={form.provider === "none"}
          {...bound("symbol", "source.symbol")}
        />
      </div>
    </div>
  );
}
