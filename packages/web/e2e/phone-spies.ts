import type { Page } from "playwright-core";

/** What the fake Notification API saw, read back from the page. */
export interface NotificationSpy {
  asked: number;
  shown: Array<{ title: string; body: string }>;
}

interface SpyWindow {
  __notifications: NotificationSpy;
}

/**
 * Replaces the browser's Notification API with a recording fake and makes the tab's visibility
 * switchable (`setHidden`). Permission and visibility live in sessionStorage, so they survive a
 * reload as the browser's would; the counts start afresh with each page load.
 */
export async function fakeNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const spy: NotificationSpy = { asked: 0, shown: [] };
    (window as unknown as SpyWindow).__notifications = spy;
    class FakeNotification {
      onclick: (() => void) | null = null;
      static get permission(): string {
        return sessionStorage.getItem("fake-permission") ?? "default";
      }
      static async requestPermission(): Promise<string> {
        spy.asked++;
        sessionStorage.setItem("fake-permission", "granted");
        return "granted";
      }
      constructor(title: string, options?: { body?: string }) {
        spy.shown.push({ title, body: options?.body ?? "" });
      }
      close() {}
    }
    Object.defineProperty(window, "Notification", { value: FakeNotification, writable: true });
    Object.defineProperty(Document.prototype, "visibilityState", {
      get: () => (sessionStorage.getItem("fake-hidden") === "true" ? "hidden" : "visible"),
    });
  });
}

export function notificationSpy(page: Page): Promise<NotificationSpy> {
  return page.evaluate(() => (window as unknown as SpyWindow).__notifications);
}

/** The tab reads as hidden (or visible) from now on, and after reloads. */
export function setHidden(page: Page, hidden: boolean): Promise<void> {
  return page.evaluate((value) => sessionStorage.setItem("fake-hidden", String(value)), hidden);
}
