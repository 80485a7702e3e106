// @vitest-environment jsdom
import { expect, it } from 'vitest';
import { createPlatformClient } from '../../../src/platform';

it('redirectToLogin sends the browser to {appBaseUrl}/login with the absolute page encoded', () => {
  window.history.replaceState(null, '', '/participants?x=1');
  const visited: string[] = [];
  const c = createPlatformClient({ serverUrl: '', appId: 'passage', getToken: () => null, appBaseUrl: '', navigate: (u) => visited.push(u) });
  c.auth.redirectToLogin();
  c.auth.redirectToLogin('/cohorts');
  const origin = window.location.origin;
  expect(visited).toEqual([
    `/login?from_url=${encodeURIComponent(`${origin}/participants?x=1`)}`,
    `/login?from_url=${encodeURIComponent(`${origin}/cohorts`)}`,
  ]);
});

it('X-Origin-URL defaults to the current page', async () => {
  window.history.replaceState(null, '', '/cohorts');
  let seen: string | null = null;
  const c = createPlatformClient({
    serverUrl: '',
    appId: 'passage',
    getToken: () => null,
    fetch: (async (_u: unknown, init: RequestInit) => {
      seen = new Headers(init.headers).get('X-Origin-URL');
      return new Response('[]');
    }) as typeof fetch,
  });
  await c.entities('Cohort').list();
  expect(seen).toBe(`${window.location.origin}/cohorts`);
});
