/**
 * A user's webhook (docs/user-guide.md, "Webhooks"): what the server accepts, and the Profile form
 * checks first.
 */
export const WEBHOOK_URL_MAX_LENGTH = 2_048;
export const WEBHOOK_SECRET_MIN = 16;
export const WEBHOOK_SECRET_MAX = 256;
export const WEBHOOK_SECRET_LENGTH_TEXT = `The secret must be ${WEBHOOK_SECRET_MIN} to ${WEBHOOK_SECRET_MAX} characters long.`;
