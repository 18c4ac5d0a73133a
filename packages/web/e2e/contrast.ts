// WCAG 2 contrast between CSS colours as getComputedStyle writes them (rgb() / rgba()).

export type Rgba = [r: number, g: number, b: number, a: number];

/** "rgb(29, 95, 194)", "rgba(29, 95, 194, 0.28)" or "#1d5fc2" → [r, g, b, a]. */
export function parseColor(css: string): Rgba {
  const hex = /^#([0-9a-f]{6})$/i.exec(css.trim());
  if (hex?.[1]) {
    const n = Number.parseInt(hex[1], 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255, 1];
  }
  const parts = /rgba?\(([^)]+)\)/
    .exec(css)?.[1]
    ?.split(/[\s,/]+/)
    .filter(Boolean);
  if (!parts || parts.length < 3) throw new Error(`not a colour: ${css}`);
  const [r, g, b, a] = parts.map(Number);
  return [r ?? 0, g ?? 0, b ?? 0, a ?? 1];
}

/** `top` painted over an opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top[3];
  return [
    top[0] * a + bottom[0] * (1 - a),
    top[1] * a + bottom[1] * (1 - a),
    top[2] * a + bottom[2] * (1 - a),
    1,
  ];
}

function luminance([r, g, b]: Rgba): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The contrast ratio (1 to 21) of a colour, blended over an opaque background, against it. */
export function contrast(foreground: string, background: string): number {
  const bg = parseColor(background);
  const fg = over(parseColor(foreground), bg);
  const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
