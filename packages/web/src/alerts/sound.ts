import {
  FALLBACK_TONE_HZ,
  FALLBACK_TONE_SECONDS,
  PITCH_DEFAULT,
  PITCH_HIGH,
  PITCH_LOW,
  type SoundId,
  type ThresholdSide,
} from "@spreadwatch/core";

/** docs/spec.md §4: a high pitch when the spread is now above its threshold, a low one when below. */
export function pitchFor(side: ThresholdSide | undefined): number {
  if (side === "above") return PITCH_HIGH;
  if (side === "below") return PITCH_LOW;
  return PITCH_DEFAULT;
}

export function soundUrl(id: SoundId): string {
  return `/sounds/${id}.wav`;
}

let toneContext: AudioContext | undefined;

/** The docs/spec.md §9 fallback: a 440 Hz tone scaled by the pitch, for 0.5 s, through Web Audio. */
function playTone(pitch: number): void {
  toneContext ??= new AudioContext();
  const context = toneContext;
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.frequency.value = FALLBACK_TONE_HZ * pitch;
  gain.gain.value = 0.2;
  oscillator.connect(gain).connect(context.destination);
  oscillator.start();
  oscillator.stop(context.currentTime + FALLBACK_TONE_SECONDS);
}

/**
 * Plays an alert sound at a pitch; resolves false when nothing could play. A file that cannot
 * play (missing, blocked by the browser's autoplay rules) falls back to a tone; if that fails
 * too the trader still has the popup, so the failure is only a warning (docs/spec.md §8).
 */
export async function playAlertSound(id: SoundId, pitch: number = PITCH_DEFAULT): Promise<boolean> {
  try {
    const audio = new Audio(soundUrl(id));
    audio.playbackRate = pitch;
    // A faster rate should sound higher, not just shorter.
    audio.preservesPitch = false;
    await audio.play();
    return true;
  } catch (playError) {
    try {
      playTone(pitch);
      return true;
    } catch (toneError) {
      console.warn(`Alert sound "${id}" could not play`, playError, toneError);
      return false;
    }
  }
}
