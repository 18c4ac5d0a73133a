// The bot's own messages; a firing's text is alerts/firing-payload.ts's.
export const CONNECTED_MESSAGE =
  "✅ Spreadwatch is connected. Your spread alerts with Telegram turned on will arrive in this chat.";

export const TEST_MESSAGE = "🧪 Test message from Spreadwatch: Telegram notifications are working.";
