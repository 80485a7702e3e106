/**
 * Sign-in without a token in any URL (issue #21.1), as OAuth's PKCE does it: before leaving for
 * /login the tablet makes a random verifier and sends only its SHA-256 (the challenge); Passage's
 * server sends the browser back with a one-time code (60 s, single use, bound to the challenge);
 * the app exchanges code + verifier by POST for the token, which never appears in an address,
 * the history or the HTTP cache.
 *
 * The verifier waits in sessionStorage for the round trip only (this tab, removed when read); it is
 * worthless without the code, and the code without it.
 */
export const PKCE_KEY = 'passage_pkce';

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function sessionStore(): KeyValueStore | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function base64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** A new verifier (kept for the round trip) and its challenge. */
export async function startSignIn(storage: KeyValueStore | null = sessionStore()): Promise<{ challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  storage?.setItem(PKCE_KEY, verifier);
  return { challenge: await challengeOf(verifier) };
}

/** The verifier of the sign-in this tab started, removed as it is read (a code is used once). */
export function takeVerifier(storage: KeyValueStore | null = sessionStore()): string | null {
  const verifier = storage?.getItem(PKCE_KEY) ?? null;
  storage?.removeItem(PKCE_KEY);
  return verifier;
}

/** `{appBaseUrl}/login?from_url=…` (spec.md 2.3) with the challenge of a new verifier. */
export async function signInUrl(appBaseUrl: string, fromUrl: string, storage?: KeyValueStore | null): Promise<string> {
  const { challenge } = await startSignIn(storage === undefined ? sessionStore() : storage);
  return `${appBaseUrl}/login?from_url=${encodeURIComponent(fromUrl)}&code_challenge=${challenge}&code_challenge_method=S256`;
}
