import { addAlertButton } from "./alerts.ts";
import { spyOnAudio } from "./audio-spy.ts";
import { goldSwingCsv } from "./fixtures.ts";
import { type NewUser, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

/**
 * The production start on the gold swing (fixtures.ts: GC_BUY crosses 100 every 2 s for 20
 * minutes), played at its own pace from 5 s after now.
 */
export function goldSwingApp(env?: Record<string, string>) {
  return startApp({
    feed: "replay",
    replayCsv: goldSwingCsv(Date.now() + 5_000, 600),
    replaySpeed: 1,
    ...(env && { env }),
  });
}

/** `trader` signed in on the gold swing, the page's sounds spied on (audio-spy.ts). */
export function goldSwingSuite(trader: NewUser) {
  return signedInSuite({
    app: () => goldSwingApp(),
    users: [trader],
    beforeLogin: spyOnAudio,
    as: trader,
    waitFor: (page) => addAlertButton(page, "GC_BUY"),
  });
}
