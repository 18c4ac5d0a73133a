import { EXCHANGES } from "@spreadwatch/core";
import { OptionsField } from "../ui/Field.tsx";
import { monthChoiceLabel, type RootChoice } from "./catalogueChoices.ts";

interface CatalogueFieldsProps {
  loading: boolean;
  choices: readonly RootChoice[];
  choice: RootChoice | undefined;
  pickedKey: string | undefined;
  onPick: (pick: { root: string; key?: string }) => void;
}

/** A shipped instrument: its root (grouped by exchange) and, for a future, its month. */
export function CatalogueFields({
  loading,
  choices,
  choice,
  pickedKey,
  onPick,
}: CatalogueFieldsProps) {
  if (loading) return <p className="muted">Loading the catalogue...</p>;
  if (!choice) return <p className="muted">Every shipped instrument is in use.</p>;
  const spec = choice.months.find((m) => m.spec.key === pickedKey)?.spec;
  const futures = choice.months[0]?.month !== null;
  return (
    <>
      <OptionsField label="Instrument" value={choice.root} onChange={(root) => onPick({ root })}>
        {EXCHANGES.map((exchange) => {
          const here = choices.filter((c) => c.exchange === exchange);
          if (here.length === 0) return null;
          return (
            <optgroup key={exchange} label={exchange}>
              {here.map((c) => (
                <option key={c.root} value={c.root}>
                  {`${c.root} — ${c.name}`}
                </option>
              ))}
            </optgroup>
          );
        })}
      </OptionsField>
      {futures && (
        <OptionsField
          label="Contract month"
          value={pickedKey}
          onChange={(key) => onPick({ root: choice.root, key })}
        >
          {choice.months.map(({ month, spec: s }) => (
            <option key={s.key} value={s.key}>
              {month ? monthChoiceLabel(month, s.key) : s.key}
            </option>
          ))}
        </OptionsField>
      )}
      {spec && (
        <p className="add-instrument__summary" data-testid="catalogue-summary">
          Adds <strong>{spec.key}</strong>: {spec.name}, {spec.exchange}, quoted in {spec.unit}, lot{" "}
          {spec.lotUnits}, tick {spec.tick}.
        </p>
      )}
    </>
  );
}
