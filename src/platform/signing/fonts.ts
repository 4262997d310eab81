import fs from 'node:fs';
import path from 'node:path';

/**
 * DejaVu Sans (the `dejavu-fonts-ttf` package, shipped with the service): Latin, Greek and Cyrillic,
 * €, and the other characters the standard PDF fonts cannot encode. Read once, embedded (as a subset)
 * in every PDF the service writes.
 */
const dir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
let cache: { regular: Buffer; bold: Buffer; oblique: Buffer } | undefined;

export function documentFonts(): { regular: Buffer; bold: Buffer; oblique: Buffer } {
  cache ??= {
    regular: fs.readFileSync(path.join(dir, 'DejaVuSans.ttf')),
    bold: fs.readFileSync(path.join(dir, 'DejaVuSans-Bold.ttf')),
    oblique: fs.readFileSync(path.join(dir, 'DejaVuSans-Oblique.ttf')),
  };
  return cache;
}
