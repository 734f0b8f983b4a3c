/**
 * Reads a QR code back from terminal text the way a phone would: the half-block lines
 * (src/terminal/enrollment-qr.ts) become pixels and jsQR decodes them. Light modules are the
 * blocks; spaces are dark.
 */
import jsQR from "jsqr";

const HALVES: Record<string, [boolean, boolean]> = {
  // [top is light, bottom is light]
  "█": [true, true],
  "▀": [true, false],
  "▄": [false, true],
  " ": [false, false],
};

const SCALE = 4;
const MARGIN = 4;

/** The text of the first QR code in `output`, or null when none decodes. */
export function decodeTerminalQr(output: string): string | null {
  const rows = output
    .split(/\r?\n/)
    .filter((line) => line.length >= 21 && /^[█▀▄ ]+$/.test(line) && /[█▀▄]/.test(line));
  if (rows.length === 0) return null;
  const modules: boolean[][] = [];
  for (const row of rows) {
    const top: boolean[] = [];
    const bottom: boolean[] = [];
    for (const char of row) {
      const [t, b] = HALVES[char] ?? [true, true];
      top.push(t);
      bottom.push(b);
    }
    modules.push(top, bottom);
  }
  const size = Math.max(...modules.map((r) => r.length)) + 2 * MARGIN;
  const height = modules.length + 2 * MARGIN;
  const width = size * SCALE;
  const pixels = new Uint8ClampedArray(width * height * SCALE * 4).fill(255);
  modules.forEach((row, y) => {
    row.forEach((light, x) => {
      if (light) return;
      for (let dy = 0; dy < SCALE; dy++) {
        for (let dx = 0; dx < SCALE; dx++) {
          const at = (((y + MARGIN) * SCALE + dy) * width + (x + MARGIN) * SCALE + dx) * 4;
          pixels[at] = pixels[at + 1] = pixels[at + 2] = 0;
        }
      }
    });
  });
  return jsQR(pixels, width, height * SCALE)?.data ?? null;
}
