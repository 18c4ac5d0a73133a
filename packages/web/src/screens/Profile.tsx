import { Link } from "wouter";
import { AppHeader } from "../components/app/AppHeader.tsx";
import { DarkModeSwitch } from "../components/app/DarkModeSwitch.tsx";
import { LogoutButton } from "../components/app/LogoutButton.tsx";
import { ChangePasswordForm } from "../components/profile/ChangePasswordForm.tsx";
import { KiteLinkSettings } from "../components/profile/KiteLinkSettings.tsx";
import { LotSizeSettings } from "../components/profile/LotSizeSettings.tsx";
import { WebhookSettings } from "../components/profile/WebhookSettings.tsx";
import { TelegramSettings } from "../components/telegram/TelegramSettings.tsx";
import { Section } from "../components/ui/Section.tsx";
import type { SessionUser } from "../session/cache.ts";

export function Profile({ user }: { user: SessionUser }) {
  return (
    <div className="page">
      <AppHeader title="Profile">
        <DarkModeSwitch />
        <Link href="/">Back to Dashboard</Link>
        <LogoutButton />
      </AppHeader>
      <main className="screen profile__grid">
        <Section title="Profile Information">
          <dl className="facts">
            <dt>Username</dt>
            <dd data-testid="profile-username">{user.username}</dd>
            <dt>Role</dt>
            <dd data-testid="profile-role">{user.is_admin ? "Administrator" : "User"}</dd>
          </dl>
        </Section>
        <Section title="Change Password">
          <ChangePasswordForm />
        </Section>
        <Section title="Lot size">
          <LotSizeSettings />
        </Section>
        <Section title="Telegram Notifications">
          <TelegramSettings />
        </Section>
        <Section title="Webhook">
          <WebhookSettings />
        </Section>
        <Section title="Kite (live orders)">
          <KiteLinkSettings />
        </Section>
      </main>
    </div>
  );
}
