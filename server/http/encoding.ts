/**
 * Content negotiation for compressed answers (issue #11): which of the encodings we can send the
 * client accepts, by its Accept-Encoding q-values. Brotli is preferred at equal q (smaller than
 * gzip for the same text); nothing acceptable → undefined (send the bytes as they are).
 */
export type Encoding = 'br' | 'gzip';

const PREFERENCE: readonly Encoding[] = ['br', 'gzip'];

/** Content types worth compressing: text, JSON, JavaScript, SVG, web manifests. */
export const COMPRESSIBLE_TYPE = /^\s*(?:text\/|application\/(?:json|javascript|manifest\+json|xml|[\w.+-]*\+json)|image\/svg\+xml)/i;

export function chooseEncoding(acceptEncoding: string | undefined | null, available: readonly Encoding[] = PREFERENCE): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    if (Number.isFinite(weight)) q.set(name.trim(), weight);
  }
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const enc of PREFERENCE) {
    if (!available.includes(enc)) continue;
    const weight = q.get(enc) ?? q.get('*') ?? 0;
    if (weight > bestQ) {
      best = enc;
      bestQ = weight;
    }
  }
  return best;
}

/** Adds Accept-Encoding to a response's Vary header (once). */
export function varyOnEncoding(headers: Headers): void {
  const current = headers.get('Vary');
  if (current === '*' || (current && /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(current))) return;
  headers.set('Vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding');
}
