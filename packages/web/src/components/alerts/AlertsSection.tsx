import { useId, useState } from "react";
import { TelegramSummary } from "../telegram/TelegramSummary.tsx";
import { Section } from "../ui/Section.tsx";
import { AlertHistory } from "./AlertHistory.tsx";
import "./alerts-section.css";
import { SpreadAlertsPanel } from "./SpreadAlertsPanel.tsx";

type Tab = "alerts" | "history";

const TABS: { id: Tab; label: string }[] = [
  { id: "alerts", label: "Alerts" },
  { id: "history", label: "History" },
];

/**
 * The dashboard's alerts section (docs/spec.md §2): the Spread Alerts panel, or its History tab
 * (docs/user-guide.md, "Spread alerts"), beside the Telegram panel.
 */
export function AlertsSection() {
  const [tab, setTab] = useState<Tab>("alerts");
  const base = useId();
  return (
    <div className="alerts-section" id="alerts-section">
      <div className="alerts-main">
        <div className="alerts-tabs" role="tablist" aria-label="Alerts section">
          {TABS.map(({ id, label }) => (
            <button
              key={id}
              type="button"
              role="tab"
              id={`${base}-${id}-tab`}
              aria-selected={tab === id}
              aria-controls={`${base}-${id}-panel`}
              className="button button--small alerts-tabs__tab"
              onClick={() => setTab(id)}
            >
              {label}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`${base}-${tab}-panel`} aria-labelledby={`${base}-${tab}-tab`}>
          {tab === "alerts" ? (
            <SpreadAlertsPanel />
          ) : (
            <Section title="Alert History" className="history-panel">
              <AlertHistory />
            </Section>
          )}
        </div>
      </div>
      <Section title="Telegram Notifications" className="telegram-panel">
        <TelegramSummary />
      </Section>
    </div>
  );
}
