import { AddUserForm } from "../components/admin/AddUserForm.tsx";
import { AdminPage } from "../components/admin/AdminPage.tsx";
import { KiteConnectedNotice } from "../components/admin/KiteConnectedNotice.tsx";
import { LiveOrdersSwitch } from "../components/admin/LiveOrdersSwitch.tsx";
import { MarketDataHealth } from "../components/admin/MarketDataHealth.tsx";
import { UserList } from "../components/admin/UserList.tsx";
import { Section } from "../components/ui/Section.tsx";
import type { SessionUser } from "../session/cache.ts";

export function Admin({ user }: { user: SessionUser }) {
  return (
    <AdminPage>
      <KiteConnectedNotice />
      <section className="screen__group" aria-labelledby="user-management">
        <h2 id="user-management" className="screen__heading">
          User Management
        </h2>
        <div className="admin__grid">
          <Section title="Add New User" level={3}>
            <AddUserForm />
          </Section>
          <Section title="User List" level={3} className="section--flush">
            <UserList me={user} />
          </Section>
        </div>
      </section>
      <Section title="Market Data Health" className="section--flush section--health">
        <MarketDataHealth />
      </Section>
      <Section title="System Settings">
        <LiveOrdersSwitch />
      </Section>
    </AdminPage>
  );
}
