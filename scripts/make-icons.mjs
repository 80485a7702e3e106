// Makes the PWA icons from the one source image, public/icon.svg (run: node scripts/make-icons.mjs;
// the PNGs are committed, so a build never needs sharp). Chromium's installability check wants a
// 192 and a 512 icon; Android crops 'maskable' icons to a circle of 80% of the width, so the
// maskable one draws the icon at 80% on a full-bleed tile of its own colour.
import sharp from 'sharp';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const svg = readFileSync(join(root, 'public/icon.svg'));
const out = join(root, 'public/icons');
const TILE = '#1e3a5f'; // the <rect> fill of icon.svg
const MASKABLE_SCALE = 0.8;

function render(size) {
  // density: rasterise the SVG sharp at the target size instead of scaling a 72 dpi bitmap.
  return sharp(svg, { density: Math.ceil((72 * size) / 512) * 2 }).resize(size, size);
}

async function plain(size, name) {
  await render(size).png().toFile(join(out, name));
}

async function maskable(size, name) {
  const inner = Math.round(size * MASKABLE_SCALE);
  const glyph = await render(inner).png().toBuffer();
  const offset = Math.round((size - inner) / 2);
  await sharp({ create: { width: size, height: size, channels: 4, background: TILE } })
    .composite([{ input: glyph, top: offset, left: offset }])
    .png()
    .toFile(join(out, name));
}

async function opaque(size, name) {
  // iOS shows transparent corners of a home-screen icon as black: flatten onto the tile colour.
  await render(size).flatten({ background: TILE }).png().toFile(join(out, name));
}

mkdirSync(out, { recursive: true });
await plain(192, 'icon-192.png');
await plain(512, 'icon-512.png');
await maskable(512, 'icon-maskable-512.png');
await opaque(180, 'apple-touch-icon-180.png');
console.log('icons written to public/icons/');
