import { useMemo, useState } from "react";
import type { AlertView } from "../../alerts/texts.ts";
import { formatThreshold } from "../../alerts/threshold.ts";
import { useAlertList } from "../../hooks/alerts/useAlerts.ts";
import { isAlertable } from "../../market/chartSymbols.ts";
import { AlertModal } from "../alerts/AlertModal.tsx";
import type { ThresholdLine } from "./plugins/thresholds.ts";

const NO_ALERTS: AlertView[] = [];

/**
 * The user's alerts on the shown symbol, as threshold lines, and the alert modal the chart's
 * "Create alert at …" opens. Only for users with alerts_enabled and for spread symbols (the
 * only ones alerts exist for); otherwise no lines and no modal.
 */
export function useChartAlerts(symbol: string, alertsEnabled: boolean) {
  const spread = isAlertable(symbol) ? symbol : undefined;
  const list = useAlertList(alertsEnabled && spread !== undefined);
  const all = list.data?.alerts ?? NO_ALERTS;
  const symbolAlerts = useMemo(
    () => (spread ? all.filter((a) => a.commodityType === spread) : NO_ALERTS),
    [all, spread],
  );
  const lines = useMemo(
    (): ThresholdLine[] =>
      symbolAlerts.map((a) => ({
        id: a.id,
        value: a.threshold,
        label: formatThreshold(a.commodityType, a.threshold),
        enabled: a.enabled,
      })),
    [symbolAlerts],
  );
  const [draft, setDraft] = useState<{ symbol: string; threshold: number }>();
  return {
    /** Alerts can be created here: the user may, and the symbol is a spread. */
    canCreate: alertsEnabled && spread !== undefined,
    lines,
    create(threshold: number) {
      if (spread) setDraft({ symbol: spread, threshold });
    },
    modal: (currentSpread: number | undefined) =>
      draft && (
        <AlertModal
          key={`${draft.symbol}:${draft.threshold}`}
          symbol={draft.symbol}
          symbolAlerts={draft.symbol === spread ? symbolAlerts : NO_ALERTS}
          currentSpread={currentSpread}
          initialThreshold={draft.threshold}
          onClose={() => setDraft(undefined)}
        />
      ),
  };
}
