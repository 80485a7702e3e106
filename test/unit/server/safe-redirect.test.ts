import { describe, expect, it } from 'vitest';
import { safeTarget, withCode } from '../../../server/http/safe-redirect';

const origin = 'http://127.0.0.1:4173';

describe('safeTarget', () => {
  it('keeps same-origin and relative targets', () => {
    expect(safeTarget('/participants?x=1#top', origin).href).toBe(`${origin}/participants?x=1#top`);
    expect(safeTarget(`${origin}/cohortdetail?id=7`, origin).href).toBe(`${origin}/cohortdetail?id=7`);
  });

  it('falls back to / for anything that leaves the origin', () => {
    for (const bad of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'http://127.0.0.1:9999/',
      'data:text/html,hi',
      undefined,
      '',
    ]) {
      expect(safeTarget(bad, origin).href, String(bad)).toBe(`${origin}/`);
    }
  });

  it('adds the one-time code and keeps the other parameters', () => {
    expect(withCode(new URL(`${origin}/cohortdetail?id=7&tab=2#s`), 'C0DE')).toBe(`${origin}/cohortdetail?id=7&tab=2&code=C0DE#s`);
  });

  it('never passes on a token or an earlier code that from_url carried', () => {
    const href = withCode(new URL(`${origin}/participants?access_token=STOLEN&code=OLD`), 'NEW');
    expect(href).toBe(`${origin}/participants?code=NEW`);
  });
});
