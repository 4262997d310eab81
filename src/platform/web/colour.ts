// An organisation's colour on buttons (white text on it) and links (it as text on white): both read
// only when the colour and white differ by at least 4.5:1 (WCAG 2.2, 1.4.3, normal text).

const HEX = /^#[0-9a-f]{6}$/i;

/** WCAG's minimum contrast for normal text. */
export const MIN_CONTRAST = 4.5;

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const linear = (c: number) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

/** The contrast ratio of a `#rrggbb` colour with white (1 to 21). */
export function contrastWithWhite(hex: string): number {
  const [r, g, b] = channels(hex).map(linear) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05);
}

const toHex = (rgb: number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/**
 * The colour to use for buttons and links: the one given (`#rrggbb`, any case) when white reads on it,
 * else the same hue darkened until it does; null for anything that is not `#rrggbb` (the product's
 * own colour is used then).
 */
export function readableOnWhite(colour: string | null | undefined): string | null {
  if (!colour || !HEX.test(colour)) return null;
  let rgb = channels(colour.toLowerCase());
  while (contrastWithWhite(toHex(rgb)) < MIN_CONTRAST) {
    rgb = rgb.map((c) => Math.floor(c * 0.92)) as [number, number, number];
  }
  return toHex(rgb);
}
