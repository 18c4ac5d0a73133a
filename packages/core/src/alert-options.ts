/** The eight sounds of docs/spec.md §3, at /sounds/{id}.wav; the modal offers the first four. */
export const SOUND_IDS = [
  "beep",
  "chime",
  "bell",
  "alert",
  "ping",
  "notification",
  "ding",
  "coin",
] as const;
export type SoundId = (typeof SOUND_IDS)[number];
export const MODAL_SOUND_IDS: readonly SoundId[] = ["beep", "chime", "bell", "alert"];
export const DEFAULT_SOUND_ID: SoundId = "beep";

export function soundLabel(id: SoundId): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}

/** Telegram notification limits: the modal offers 1, 3, 5; the panel 1 to 5 (docs/spec.md §9). */
export const MODAL_LIMIT_OPTIONS = [1, 3, 5] as const;
export const MIN_NOTIFICATION_LIMIT = 1;
export const MAX_NOTIFICATION_LIMIT = 5;
export const DEFAULT_NOTIFICATION_LIMIT = 1;

/** Beyond the spec: a cap that keeps one account from loading the server's alert engine. */
export const MAX_ALERTS_PER_USER = 100;

/** Sound pitch modifiers (docs/spec.md §9): high when the spread is now above, low when below. */
export const PITCH_HIGH = 1.5;
export const PITCH_LOW = 0.75;
export const PITCH_DEFAULT = 1;
export const FALLBACK_TONE_HZ = 440;
export const FALLBACK_TONE_SECONDS = 0.5;
