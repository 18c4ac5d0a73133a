import type { RouterInputs } from "@spreadwatch/api";
import type { InstrumentSpec } from "@spreadwatch/core";
import { type FormEvent, useMemo, useRef, useState } from "react";
import { useFlash } from "../../hooks/ui/useFlash.ts";
import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";
import { FlashMessages } from "../ui/Message.tsx";
import { FormActions } from "../ui/SubmitButton.tsx";
import { CatalogueFields } from "./CatalogueFields.tsx";
import { CUSTOM_EMPTY, CustomFields, type CustomForm, customInput } from "./CustomFields.tsx";
import { fieldNamed, resolvePick, rootChoices } from "./catalogueChoices.ts";

type AddInput = RouterInputs["instruments"]["add"];
type Mode = "catalogue" | "custom";

interface AddInstrumentFormProps {
  /** The shipped instruments not in use; undefined while the list loads. */
  available: readonly InstrumentSpec[] | undefined;
}

/**
 * Puts an instrument in use: one of the shipped catalogue (a root and its month), or a custom
 * one with every field and where a provider finds it. The server checks everything; its
 * sentence ("lotUnits: must be a positive number", "ZINC is already in use") shows under the
 * form and marks the field it names.
 */
export function AddInstrumentForm({ available }: AddInstrumentFormProps) {
  const [mode, setMode] = useState<Mode>("catalogue");
  const [pick, setPick] = useState<{ root?: string; key?: string }>({});
  const [custom, setCustom] = useState<CustomForm>(CUSTOM_EMPTY);
  const choices = useMemo(() => rootChoices(available ?? []), [available]);
  const resolved = resolvePick(choices, pick);
  const flash = useFlash();
  const utils = trpc.useUtils();
  const add = trpc.instruments.add.useMutation({
    onSettled: () => utils.instruments.list.invalidate(),
  });
  // A double click sends the second click before React disables the button: one request only.
  const sending = useRef(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    const input: AddInput | undefined =
      mode === "catalogue"
        ? resolved.key
          ? { key: resolved.key }
          : undefined
        : customInput(custom);
    if (!input) {
      flash.showError("Choose an instrument to add.");
      return;
    }
    flash.clear();
    sending.current = true;
    add.mutate(input, {
      onSuccess: () => {
        flash.showSuccess(`${input.key} added: it is quoted from now on.`);
        if (mode === "catalogue") setPick({});
        else setCustom(CUSTOM_EMPTY);
      },
      onError: (error) =>
        flash.showError(failureText(error, { fallback: `Failed to add ${input.key}` })),
      onSettled: () => {
        sending.current = false;
      },
    });
  };

  const invalid = fieldNamed(flash.error);
  return (
    <form className="form add-instrument" onSubmit={submit} noValidate aria-label="Add Instrument">
      <fieldset className="segmented" aria-label="Add from">
        {(
          [
            ["catalogue", "From the catalogue"],
            ["custom", "Custom"],
          ] as const
        ).map(([value, label]) => (
          <button
            key={value}
            type="button"
            className="segmented__option"
            aria-pressed={mode === value}
            onClick={() => {
              setMode(value);
              flash.clear();
            }}
          >
            {label}
          </button>
        ))}
      </fieldset>
      {mode === "catalogue" ? (
        <CatalogueFields
          loading={available === undefined}
          choices={choices}
          choice={resolved.choice}
          pickedKey={resolved.key}
          onPick={setPick}
        />
      ) : (
        <CustomFields form={custom} onChange={setCustom} invalid={invalid} />
      )}
      <FlashMessages flash={flash} />
      <FormActions busy={add.isPending} busyLabel="Adding...">
        Add Instrument
      </FormActions>
    </form>
  );
}
