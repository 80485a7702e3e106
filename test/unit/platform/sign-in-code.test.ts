import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { challengeOf, PKCE_KEY, signInUrl, takeVerifier } from '../../../src/platform/sign-in-code';
import { getStoredToken, onTokenChange, storeToken, takeLegacyToken, tokenClaims } from '../../../src/platform/token-store';

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
}

/** Issue #21.1: the sign-in's PKCE round trip and where the token rests. */
describe('sign-in code (PKCE)', () => {
  it('the challenge is base64url(SHA-256(verifier)), as RFC 7636 S256 (Node crypto as the reference)', async () => {
    for (const verifier of ['dBjftJeZ4CVP-mJ92K9jrSKTbqBkiJv7hBEYQ-1cd0o', 'a'.repeat(128)]) {
      expect(await challengeOf(verifier)).toBe(createHash('sha256').update(verifier).digest('base64url'));
    }
  });

  it('the login address carries the challenge of a new verifier, kept for this round trip and used once', async () => {
    const storage = memoryStorage();
    const url = await signInUrl('', 'http://tablet.example/participants', storage);
    const parsed = new URL(url, 'http://tablet.example');
    expect(parsed.pathname).toBe('/login');
    expect(parsed.searchParams.get('from_url')).toBe('http://tablet.example/participants');
    expect(parsed.searchParams.get('code_challenge_method')).toBe('S256');
    const verifier = storage.map.get(PKCE_KEY)!;
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parsed.searchParams.get('code_challenge')).toBe(await challengeOf(verifier));
    expect(url).not.toContain(verifier);
    expect(takeVerifier(storage)).toBe(verifier);
    expect(takeVerifier(storage)).toBeNull();
  });

  it('two sign-ins never share a verifier', async () => {
    const a = memoryStorage();
    const b = memoryStorage();
    await signInUrl('', 'http://x/', a);
    await signInUrl('', 'http://x/', b);
    expect(a.map.get(PKCE_KEY)).not.toBe(b.map.get(PKCE_KEY));
  });
});

describe('token store', () => {
  it('holds the token in memory only and tells listeners; a token an older version left in clear storage is taken off the disk', () => {
    const seen: (string | null)[] = [];
    const stop = onTokenChange((t) => seen.push(t));
    storeToken('A');
    storeToken('A');
    storeToken(null);
    stop();
    expect(seen).toEqual(['A', null]);
    expect(getStoredToken()).toBeNull();

    const legacy = memoryStorage({ academy_access_token: 'OLD', token: 'OLD' });
    expect(takeLegacyToken(legacy)).toBe('OLD');
    expect(legacy.map.size).toBe(0);
    expect(takeLegacyToken(legacy)).toBeNull();
  });

  it('reads its own session id from the token, and nothing from junk', () => {
    const payload = btoa(JSON.stringify({ sub: 'u1', sid: 'S-1', exp: 9 })).replace(/=+$/, '');
    expect(tokenClaims(`h.${payload}.sig`)).toEqual({ sub: 'u1', sid: 'S-1', exp: 9 });
    expect(tokenClaims('not a token')).toBeNull();
    expect(tokenClaims(null)).toBeNull();
  });
});
