import { ALERT_METRIC_LABELS, ALERT_METRICS, type AlertMetric } from "@spreadwatch/core";
import { SelectField } from "../ui/Field.tsx";
import { METRIC_HINTS } from "./metric.ts";

/** What an alert watches (docs/user-guide.md, "Spread alerts"), with a hint on what it means. */
export function MetricField({
  value,
  onChange,
}: {
  value: AlertMetric;
  onChange: (metric: AlertMetric) => void;
}) {
  return (
    <div className="alert-form__metric">
      <SelectField
        label="Metric"
        options={ALERT_METRICS}
        value={value}
        onChange={onChange}
        format={(m) => ALERT_METRIC_LABELS[m]}
      />
      <p className="field__hint" data-field="metric-hint">
        {METRIC_HINTS[value]}
      </p>
    </div>
  );
}
