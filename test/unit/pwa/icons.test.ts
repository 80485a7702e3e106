import { describe, expect, it } from 'vitest';
import sharp from 'sharp';

/** The committed PNGs of scripts/make-icons.mjs (issue #5.2). */
async function pixel(file: string, x: number, y: number) {
  const { data, info } = await sharp(`public/icons/${file}`).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 4;
  return { r: data[i], g: data[i + 1], b: data[i + 2], a: data[i + 3] };
}

describe('PWA icons', () => {
  it.each([
    ['icon-192.png', 192],
    ['icon-512.png', 512],
    ['icon-maskable-512.png', 512],
    ['apple-touch-icon-180.png', 180],
  ])('%s is a %i px square PNG', async (file, size) => {
    const m = await sharp(`public/icons/${file}`).metadata();
    expect([m.format, m.width, m.height]).toEqual(['png', size, size]);
  });

  it('the maskable icon is full bleed: its corners are the opaque tile colour, not transparent', async () => {
    expect(await pixel('icon-maskable-512.png', 0, 0)).toEqual({ r: 0x1e, g: 0x3a, b: 0x5f, a: 255 });
    expect(await pixel('icon-maskable-512.png', 511, 511)).toEqual({ r: 0x1e, g: 0x3a, b: 0x5f, a: 255 });
  });

  it('the plain icon keeps the rounded corners of icon.svg', async () => {
    expect((await pixel('icon-512.png', 0, 0)).a).toBe(0);
    expect((await pixel('icon-512.png', 256, 20)).a).toBe(255);
  });
});
