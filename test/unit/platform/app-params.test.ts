import { describe, expect, it } from 'vitest';
import { readAppParams, planAppParams } from '../../../src/platform';
import { toSnakeCase } from '../../../src/platform/app-params';

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, String(v)),
    removeItem: (k: string) => void map.delete(k),
  };
}

function run(href: string, stored: Record<string, string> = {}) {
  const storage = memoryStorage(stored);
  const replaced: string[] = [];
  const params = readAppParams({ href, storage, storedKeys: Object.keys(stored), replaceUrl: (u) => replaced.push(u) });
  return { params, storage: storage.map, replaced };
}

describe('readAppParams', () => {
  it('takes a token from the URL into memory only, never storage, and removes it from the address bar (issue #21.1)', () => {
    const { params, storage, replaced } = run('https://app.example/page?access_token=URLTOK&foo=1#sec');
    expect(params.accessToken).toBe('URLTOK');
    expect(storage.has('academy_access_token')).toBe(false);
    expect(storage.has('token')).toBe(false);
    expect([...storage.values()]).not.toContain('URLTOK');
    expect(replaced).toEqual(['/page?foo=1#sec']);
    expect(params.fromUrl).toBe('https://app.example/page?foo=1#sec');
  });

  it('takes the one-time sign-in code from the URL and removes it from the address bar', () => {
    const { params, storage, replaced } = run('https://app.example/participants?code=ONE-TIME&x=1');
    expect(params.signInCode).toBe('ONE-TIME');
    expect(params.accessToken).toBeNull();
    expect([...storage.values()]).not.toContain('ONE-TIME');
    expect(replaced).toEqual(['/participants?x=1']);
  });

  it('an empty access_token is no sign-in, and a token an older version stored in clear is deleted', () => {
    const { params, storage, replaced } = run('https://app.example/participants?access_token=', { academy_access_token: 'OLD', token: 'OLD', academy_q: 'Ana Ruiz' });
    expect(params.accessToken).toBeNull();
    expect(storage.has('academy_access_token')).toBe(false);
    expect(storage.has('token')).toBe(false);
    expect(storage.has('academy_q')).toBe(false);
    expect(replaced).toEqual(['/participants']);
  });

  it('clear_access_token=true forgets the token and drops the flag from the URL', () => {
    const { params, storage, replaced } = run('https://app.example/?clear_access_token=true&access_token=T', {
      academy_access_token: 'OLD',
      token: 'OLD',
    });
    expect(params.accessToken).toBeNull();
    expect(params.clearToken).toBe(true);
    expect(storage.has('academy_access_token')).toBe(false);
    expect(storage.has('token')).toBe(false);
    expect(replaced).toEqual(['/']);
  });

  it('has defaults: app id passage, same-origin server, the current page as from_url, no functions version', () => {
    const { params } = run('https://app.example/participants?id=9');
    expect(params).toEqual({
      appId: 'passage',
      serverUrl: '',
      appBaseUrl: '',
      fromUrl: 'https://app.example/participants?id=9',
      functionsVersion: null,
      accessToken: null,
      signInCode: null,
      clearToken: false,
      extra: { academy_id: '9' },
    });
  });

  it('reads app_id, server_url, from_url and functions_version from the URL and stores them', () => {
    const { params, storage } = run(
      'https://app.example/?app_id=other&server_url=https%3A%2F%2Fapi.example&from_url=https%3A%2F%2Fx%2Fy&functions_version=v3',
    );
    expect(params).toMatchObject({ appId: 'other', serverUrl: 'https://api.example', fromUrl: 'https://x/y', functionsVersion: 'v3' });
    expect(storage.get('academy_app_id')).toBe('other');
    expect(storage.get('academy_server_url')).toBe('https://api.example');
    expect(storage.get('academy_functions_version')).toBe('v3');
  });

  it('falls back to stored values, except from_url which is always the current page (and never stored)', () => {
    const { params, storage } = run('https://app.example/dashboard', {
      academy_app_id: 'stored-app',
      academy_server_url: 'https://stored',
      academy_functions_version: 'v9',
      academy_from_url: 'https://stale/page',
    });
    expect(storage.has('academy_from_url')).toBe(false);
    expect(params).toMatchObject({
      appId: 'stored-app',
      serverUrl: 'https://stored',
      functionsVersion: 'v9',
      fromUrl: 'https://app.example/dashboard',
    });
  });

  it('keeps every other URL parameter under academy_<snake_case> in memory, not in storage (issue #21.6)', () => {
    const { params, storage } = run('https://app.example/?utmSource=mail&is_new_user=true&Referral-Code=x&q=Ana%20Ruiz');
    expect(params.extra).toEqual({ academy_utm_source: 'mail', academy_is_new_user: 'true', academy_referral_code: 'x', academy_q: 'Ana Ruiz' });
    expect(storage.size).toBe(0);
  });

  it('the plan is pure: it reports writes without touching storage', () => {
    const plan = planAppParams('https://a.example/x?access_token=T&app_id=other', () => null);
    expect(plan.writes).toEqual([['academy_app_id', 'other']]);
    expect(plan.params.accessToken).toBe('T');
    expect(plan.cleanedUrl).toBe('/x?app_id=other');
  });

  it('toSnakeCase', () => {
    expect(toSnakeCase('functionsVersion')).toBe('functions_version');
    expect(toSnakeCase('app_id')).toBe('app_id');
    expect(toSnakeCase('from-url')).toBe('from_url');
  });
});
