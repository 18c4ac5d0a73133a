export { alerts } from "./alerts.ts";
export { spreadCandles } from "./candles.ts";
export { sessionEnds } from "./session-ends.ts";
export { sessions } from "./sessions.ts";
export { telegramLinks, telegramOutbox } from "./telegram.ts";
export { users } from "./users.ts";
