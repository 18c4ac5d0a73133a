/** mulberry32: a tiny seedable PRNG, so a simulator run can be reproduced from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal draw (Box–Muller). */
export function gaussian(random: () => number): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

const scaleOf = new Map<number, number>();

/** 10^decimals of a tick size (0.005 → 1000), cached: this runs for every simulated quote. */
function tickScale(tick: number): number {
  let scale = scaleOf.get(tick);
  if (scale === undefined) {
    scale = 10 ** Math.max(0, Math.ceil(-Math.log10(tick)) + 1);
    scaleOf.set(tick, scale);
  }
  return scale;
}

export function roundToTick(value: number, tick: number): number {
  // Round in tick units, then strip float noise (e.g. 0.1 * 3) at the tick's decimals.
  const scale = tickScale(tick);
  return Math.round(Math.round(value / tick) * tick * scale) / scale;
}

/** murmur3's finaliser: scrambles every input bit into every output bit. */
function mix32(h: number): number {
  let x = h >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A uniform in (0, 1) that depends only on its inputs: the draw for one moment of one stream. */
function hashUniform(seed: number, stream: number, index: number, salt: number): number {
  let h = mix32(seed ^ 0x9e3779b9);
  h = mix32(h ^ Math.imul(stream + 1, 0x27d4eb2d));
  h = mix32(h ^ (index | 0));
  // Indices beyond 32 bits (none today: minutes since 1970 fit) still change the draw.
  h = mix32(h ^ Math.floor(index / 4294967296) ^ Math.imul(salt, 0x165667b1));
  return (h + 0.5) / 4294967296;
}

/**
 * Standard normal draw addressed by (seed, stream, index) instead of by position in a sequence:
 * the simulated market's shock for minute `index` is the same in every process that asks, so a
 * restarted server lands on the path the previous one was on.
 */
export function hashGaussian(seed: number, stream: number, index: number): number {
  const u = hashUniform(seed, stream, index, 1);
  const v = hashUniform(seed, stream, index, 2);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** FNV-1a of a string: a key's own seed and streams (curves.ts), the same in every process. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
