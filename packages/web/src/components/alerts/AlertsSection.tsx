import { Section } from "../Section.tsx";
import { TelegramSummary } from "../telegram/TelegramSummary.tsx";
import { SpreadAlertsPanel } from "./SpreadAlertsPanel.tsx";

/** The dashboard's alerts section (spec §2): the Spread Alerts and Telegram panels. */
export function AlertsSection() {
  return (
    <div className="alerts-section" id="alerts-section">
      <SpreadAlertsPanel />
      <Section title="Telegram Notifications" className="telegram-panel">
        <TelegramSummary />
      </Section>
    </div>
  );
}
