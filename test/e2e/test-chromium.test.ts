import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CHROMIUM_ARGS, PLAYWRIGHT_DISABLED_FEATURES } from '../support/processes';
import { workerBrowser } from './harness';

/**
 * The Chromium every browser test drives (test/support/processes.ts CHROMIUM_ARGS, issue #27.5):
 * one --disable-features that keeps Playwright's list (Chromium keeps a switch's last value) and
 * turns off the address bar's popup, which Chromium 156 otherwise loads into every window.
 */
function playwrightsOwnList(): string[] {
  const require = createRequire(import.meta.url);
  const bundle = readFileSync(join(dirname(require.resolve('playwright-core/package.json')), 'lib/coreBundle.js'), 'utf8');
  const list = bundle.match(/disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/);
  if (!list) throw new Error("playwright-core's list of disabled features is no longer where this test reads it: find it and update PLAYWRIGHT_DISABLED_FEATURES");
  return [...list[1].replace(/\/\/.*$/gm, '').matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

describe('the test Chromium', () => {
  it("turns off what Playwright turns off, in the one --disable-features Chromium reads", () => {
    const switches = CHROMIUM_ARGS.filter((a) => a.startsWith('--disable-features='));
    expect(switches).toHaveLength(1);
    const ours = switches[0].slice('--disable-features='.length).split(',');
    expect(playwrightsOwnList().length).toBeGreaterThan(5);
    expect(playwrightsOwnList().filter((f) => !ours.includes(f))).toEqual([]);
    expect(PLAYWRIGHT_DISABLED_FEATURES.filter((f) => !ours.includes(f))).toEqual([]);
  });

  it('opens a page without loading the address bar popup (a WebUI renderer per window)', async () => {
    const browser = await workerBrowser();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto('data:text/html,<p>Passage</p>');
      const cdp = await browser.newBrowserCDPSession();
      const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
      await cdp.detach();
      expect(targetInfos.filter((t) => t.url.startsWith('chrome://')).map((t) => t.url)).toEqual([]);
      expect(targetInfos.some((t) => t.type === 'page' && t.url.startsWith('data:'))).toBe(true);
    } finally {
      await context.close();
    }
  });
});
