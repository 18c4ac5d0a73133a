export { alertFirings, alerts, spreadMarks, userWebhooks } from "./alerts.ts";
export { spreadCandles } from "./candles.ts";
export { idempotencyKeys, keyValues, loginAttempts } from "./limits.ts";
export { sessionEnds, sessions } from "./sessions.ts";
export { telegramLinks, telegramOutbox } from "./telegram.ts";
export { users } from "./users.ts";
