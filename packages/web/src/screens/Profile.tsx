import type { ComponentType } from "react";
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

/** The profile's settings, each its own section, in this order. */
const SETTINGS: readonly (readonly [title: string, settings: ComponentType])[] = [
  ["Change Password", ChangePasswordForm],
  ["Lot size", LotSizeSettings],
  ["Telegram Notifications", TelegramSettings],
  ["Webhook", WebhookSettings],
  ["Kite (live orders)", KiteLinkSettings],
];

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
        {SETTINGS.map(([title, Settings]) => (
          <Section key={title} title={title}>
            <Settings />
          </Section>
        ))}
      </main>
    </div>
  );
}
