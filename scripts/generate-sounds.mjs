// Synthesises the eight alert sounds of the spec (beep, chime, bell, alert, ping, notification,
// ding, coin) into packages/web/public/sounds/{id}.wav, served at /sounds/{id}.wav.
//
//   node scripts/generate-sounds.mjs
//
// Plain Node, no dependencies, no randomness: running it again writes the same bytes, so
// the committed WAVs can always be traced back to this script. 16-bit PCM mono at 22,050 Hz,
// 0.2–0.8 s each. Every note starts and ends on a short raised-cosine ramp and every file fades
// in and out, so nothing clicks; oscillators keep their phase across frequency changes for the
// same reason.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SAMPLE_RATE = 22_050;
const PEAK = 0.8; // of full scale: loud enough to notice, with headroom for the browser's mixer
// A sustained tone sounds far louder than a decaying one of the same peak, so beep, alert and coin
// peak lower to sit at about the loudness of the bells.
const SUSTAINED_PEAK = 0.55;
const FILE_FADE_IN_S = 0.005;
const FILE_FADE_OUT_S = 0.02;
const NOTE_RAMP_S = 0.004;
const TAU = 2 * Math.PI;
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), "../packages/web/public/sounds");

/** 0 → 1 over `length` seconds on half a cosine: no corner for the ear to hear as a click. */
function ramp(t, length) {
  if (t <= 0) return 0;
  if (t >= length) return 1;
  return 0.5 - 0.5 * Math.cos((Math.PI * t) / length);
}

/**
 * A note: `partials` ([frequency ratio, amplitude, decay time constant in s or Infinity]) of
 * `frequency`, from `start` for `length` seconds, with ramps at both ends.
 */
function note({ frequency, start, length, partials = [[1, 1, Infinity]], wave = Math.sin }) {
  return (t) => {
    const local = t - start;
    if (local < 0 || local > length) return 0;
    const edge = ramp(local, NOTE_RAMP_S) * ramp(length - local, NOTE_RAMP_S);
    let sum = 0;
    partials.forEach(([ratio, amplitude, decay], k) => {
      // Partials start a golden angle apart, not all at phase 0, so they do not pile up into one
      // spike at the onset that normalisation would then have to turn the whole sound down for.
      const phase = TAU * frequency * ratio * local + k * GOLDEN_ANGLE;
      sum += amplitude * Math.exp(-local / decay) * wave(phase);
    });
    return edge * sum;
  };
}

/** A square wave cut to its first three odd harmonics (all below Nyquist for the notes used). */
function square(phase) {
  let sum = 0;
  for (let k = 1; k <= 5; k += 2) sum += Math.sin(k * phase) / k;
  return sum;
}

/** Renders `voices` for `seconds`, normalised to `peak`, with the file's fade in and fade out. */
function render(seconds, voices, peak = PEAK) {
  const length = Math.round(seconds * SAMPLE_RATE);
  const samples = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    const t = i / SAMPLE_RATE;
    let sum = 0;
    for (const voice of voices) sum += voice(t);
    samples[i] = sum * ramp(t, FILE_FADE_IN_S) * ramp(seconds - t, FILE_FADE_OUT_S);
  }
  let max = 0;
  for (const s of samples) max = Math.max(max, Math.abs(s));
  const gain = max > 0 ? peak / max : 0;
  return samples.map((s) => s * gain);
}

/**
 * Two tones alternating every `step` s, like a European siren. The phase is the integral of the
 * frequency, so it runs on without a jump where the tone changes.
 */
function alternating(high, low, step) {
  return (t) => {
    const steps = Math.floor(t / step);
    const within = t - steps * step;
    const highSteps = Math.ceil(steps / 2);
    const frequency = steps % 2 === 0 ? high : low;
    const phase =
      TAU * ((high * highSteps + low * (steps - highSteps)) * step + frequency * within);
    // A slight dip at every change of tone makes the alternation crisper without clicking.
    const dip = ramp(within, 0.006) * ramp(step - within, 0.006);
    return (0.3 + 0.7 * dip) * (Math.sin(phase) + 0.25 * Math.sin(3 * phase));
  };
}

// Equal-tempered pitches (A4 = 440 Hz).
const C5 = 523.25;
const E5 = 659.26;
const G5 = 783.99;
const C6 = 1046.5;
const B5 = 987.77;
const E6 = 1318.51;
const A6 = 1760;

const SOUNDS = {
  // A plain 880 Hz beep.
  beep: () => render(0.25, [note({ frequency: 880, start: 0, length: 0.25 })], SUSTAINED_PEAK),

  // Two soft bell-like notes, E6 then C6, each with a quiet octave that fades first.
  chime: () => {
    const soft = [
      [1, 1, 0.35],
      [2, 0.25, 0.12],
      [3, 0.06, 0.06],
    ];
    return render(0.75, [
      note({ frequency: E6, start: 0, length: 0.45, partials: soft }),
      note({ frequency: C6, start: 0.2, length: 0.55, partials: soft }),
    ]);
  },

  // Risset's inharmonic bell partials on 500 Hz; high partials die first, the hum rings longest.
  bell: () =>
    render(0.8, [
      note({
        frequency: 500,
        start: 0,
        length: 0.8,
        partials: [
          [0.56, 1, 0.5],
          [0.92, 0.67, 0.35],
          [1.19, 1, 0.25],
          [1.71, 1.8, 0.18],
          [2, 2.67, 0.15],
          [2.74, 1.67, 0.11],
          [3, 1.46, 0.09],
          [3.76, 1.33, 0.07],
          [4.07, 1.33, 0.06],
        ],
      }),
    ]),

  // Urgent two-tone alternation, 960 / 770 Hz every 100 ms.
  alert: () => render(0.6, [alternating(960, 770, 0.1)], SUSTAINED_PEAK),

  // A short high A6 with a fast decay.
  ping: () =>
    render(0.3, [
      note({
        frequency: A6,
        start: 0,
        length: 0.3,
        partials: [
          [1, 1, 0.06],
          [2.01, 0.15, 0.03],
        ],
      }),
    ]),

  // Rising C major arpeggio, C5 E5 G5, each note ringing under the next.
  notification: () => {
    const voice = [
      [1, 1, 0.18],
      [2, 0.2, 0.08],
    ];
    return render(0.5, [
      note({ frequency: C5, start: 0, length: 0.2, partials: voice }),
      note({ frequency: E5, start: 0.11, length: 0.2, partials: voice }),
      note({ frequency: G5, start: 0.22, length: 0.28, partials: voice }),
    ]);
  },

  // One bright E6 with a shimmer of upper partials and a medium decay.
  ding: () =>
    render(0.6, [
      note({
        frequency: E6,
        start: 0,
        length: 0.6,
        partials: [
          [1, 1, 0.2],
          [2, 0.35, 0.1],
          [3, 0.15, 0.06],
          [4.2, 0.08, 0.04],
        ],
      }),
    ]),

  // The classic coin blip: a short B5 jumping to a longer, decaying E6, square-ish.
  coin: () =>
    render(
      0.45,
      [
        note({ frequency: B5, start: 0, length: 0.08, wave: square }),
        note({ frequency: E6, start: 0.08, length: 0.37, wave: square, partials: [[1, 1, 0.15]] }),
      ],
      SUSTAINED_PEAK,
    ),
};

/** A 16-bit PCM mono WAV (RIFF, 44-byte header). */
function wav(samples) {
  const dataBytes = samples.length * 2;
  const buffer = Buffer.alloc(44 + dataBytes);
  buffer.write("RIFF", 0, "ascii");
  buffer.writeUInt32LE(36 + dataBytes, 4);
  buffer.write("WAVE", 8, "ascii");
  buffer.write("fmt ", 12, "ascii");
  buffer.writeUInt32LE(16, 16); // fmt chunk size
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(SAMPLE_RATE, 24);
  buffer.writeUInt32LE(SAMPLE_RATE * 2, 28); // byte rate
  buffer.writeUInt16LE(2, 32); // block align
  buffer.writeUInt16LE(16, 34); // bits per sample
  buffer.write("data", 36, "ascii");
  buffer.writeUInt32LE(dataBytes, 40);
  samples.forEach((s, i) => {
    const clamped = Math.max(-1, Math.min(1, s));
    buffer.writeInt16LE(Math.round(clamped * 32_767), 44 + i * 2);
  });
  return buffer;
}

mkdirSync(OUT_DIR, { recursive: true });
for (const [id, make] of Object.entries(SOUNDS)) {
  const samples = make();
  const file = join(OUT_DIR, `${id}.wav`);
  writeFileSync(file, wav(samples));
  console.log(`${id.padEnd(12)} ${(samples.length / SAMPLE_RATE).toFixed(2)} s  ${file}`);
}
