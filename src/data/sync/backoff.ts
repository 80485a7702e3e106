/**
 * S8 retry delays: exponential from 1 s, capped at 15 minutes (a tablet offline for a shift
 * should still retry a few times an hour, not hammer the server), with "equal jitter" (half fixed,
 * half random) so many tablets coming back at once do not retry in lockstep. A Retry-After from
 * the server is a floor.
 */
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 15 * 60_000;

export function backoffDelay(attempts: number, random: () => number, retryAfterMs?: number): number {
  const exp = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  const jittered = Math.round(exp / 2 + (exp / 2) * random());
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** A small seeded generator (mulberry32) so the engine never touches Math.random (S14). */
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
