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
