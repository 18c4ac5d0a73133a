import { AddInstrumentForm } from "../components/admin/AddInstrumentForm.tsx";
import { AdminPage } from "../components/admin/AdminPage.tsx";
import { InstrumentList } from "../components/admin/InstrumentList.tsx";
import { Message } from "../components/ui/Message.tsx";
import { Section } from "../components/ui/Section.tsx";
import { useInstrumentList } from "../hooks/market/useInstruments.ts";

/**
 * Admin → Instruments (docs/user-guide.md "Instruments"): what is quoted, and adding or removing
 * one.
 */
export function AdminInstruments() {
  const list = useInstrumentList();
  return (
    <AdminPage>
      {list.isError && (
        <Message tone="error">{`Error loading instruments: ${list.error.message}`}</Message>
      )}
      <div className="admin__grid admin__grid--instruments">
        <Section title="Add Instrument" level={2}>
          <AddInstrumentForm available={list.data?.available} />
        </Section>
        <Section title="Instruments in use" level={2} className="section--flush">
          {list.isPending ? (
            <p className="muted">Loading instruments...</p>
          ) : (
            <InstrumentList instruments={list.data?.instruments ?? []} />
          )}
        </Section>
      </div>
    </AdminPage>
  );
}
