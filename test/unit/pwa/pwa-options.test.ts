import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { MANIFEST, NAVIGATE_FALLBACK_DENYLIST, pwaOptions } from '../../../src/pwa/pwa-options';
import { PAGES, pageUrl } from '../../../src/shell-api/paths';

const denied = (path: string) => NAVIGATE_FALLBACK_DENYLIST.some((re) => re.test(path));

describe('service worker options (issue #5.1)', () => {
  it('prompts for updates and cleans old caches, with no runtime caching of API answers', () => {
    expect(pwaOptions.strategies).toBe('generateSW');
    expect(pwaOptions.registerType).toBe('prompt');
    expect(pwaOptions.workbox?.cleanupOutdatedCaches).toBe(true);
    expect(pwaOptions.workbox?.navigateFallback).toBe('index.html');
    expect(pwaOptions.workbox?.runtimeCaching).toBeUndefined();
  });

  it('serves every page path of spec 2.1 from the app shell, query strings included', () => {
    for (const page of PAGES) {
      expect(denied(pageUrl(page)), page).toBe(false);
      expect(denied(pageUrl(page, 'abc-123')), page).toBe(false);
    }
    expect(denied('/')).toBe(false);
    expect(denied('/sync')).toBe(false);
    expect(denied('/no-such-page')).toBe(false);
  });

  it('leaves the API and the login page to the server', () => {
    expect(denied('/api')).toBe(true);
    expect(denied('/api/apps/passage/entities/Participant')).toBe(true);
    expect(denied('/login')).toBe(true);
    expect(denied('/login?from_url=%2Fparticipants')).toBe(true);
    // …but not app pages that merely start with the same letters.
    expect(denied('/apiary')).toBe(false);
    expect(denied('/loginhelp')).toBe(false);
  });
});

describe('web manifest (issue #5.2)', () => {
  it('names Passage, opens standalone at / and has 192, 512 and maskable icons that exist', () => {
    expect(MANIFEST).toMatchObject({ name: 'Passage', short_name: 'Passage', start_url: '/', scope: '/', display: 'standalone' });
    expect(MANIFEST.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(MANIFEST.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    const sizes = MANIFEST.icons.map((i) => `${i.sizes} ${i.purpose}`);
    expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
    for (const icon of MANIFEST.icons) expect(existsSync(`public${icon.src}`), icon.src).toBe(true);
  });
});
