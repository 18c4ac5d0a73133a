export { alerts } from "./alerts.ts";
export { spreadCandles } from "./candles.ts";
export { idempotencyKeys } from "./idempotency-keys.ts";
export { loginAttempts } from "./login-attempts.ts";
export { sessionEnds } from "./session-ends.ts";
export { sessions } from "./sessions.ts";
export { telegramLinks, telegramOutbox } from "./telegram.ts";
export { users } from "./users.ts";
