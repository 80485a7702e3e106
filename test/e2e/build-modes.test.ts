import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { E2E_BUILD_MARK } from '../../shared/config';
import { E2E_PIN_COST_GLOBAL } from '../../src/data/vault/keys';
import { E2E_DIST, setupHarness } from './harness';

/**
 * The browser tests drive dist-e2e/ (`vite build --mode e2e`), in which a page may ask for a
 * cheaper PIN derivation (src/data/vault/keys.ts newWrapParams, issue #27.5). What `npm start`
 * serves is dist/: it must hold no trace of that, and a server given the e2e build says so.
 */
const DIST = resolve(import.meta.dirname, '../../dist');

/** Every text file the browser can be sent from `dir`: the app's JavaScript, sw.js, index.html. */
function shipped(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /\.(js|html|webmanifest)$/.test(entry.name)) files.set(join(entry.parentPath, entry.name), readFileSync(join(entry.parentPath, entry.name), 'utf8'));
  }
  return files;
}

function holding(files: Map<string, string>, text: string): string[] {
  return [...files].filter(([, body]) => body.includes(text)).map(([path]) => path);
}

const h = setupHarness();

describe('the production build and the browser tests’ build (issue #27.5)', () => {
  it('dist/ cannot be asked for a cheaper PIN; dist-e2e/ can, and is marked as a test build', () => {
    const production = shipped(DIST);
    const e2e = shipped(E2E_DIST);
    expect(production.size).toBeGreaterThan(5);
    expect(holding(production, E2E_PIN_COST_GLOBAL)).toEqual([]);
    expect(holding(production, E2E_BUILD_MARK)).toEqual([]);
    // The same searches find both in the e2e build, so they would find a leak into dist/.
    expect(holding(e2e, E2E_PIN_COST_GLOBAL).length).toBeGreaterThan(0);
    expect(holding(e2e, E2E_BUILD_MARK)).toEqual([join(E2E_DIST, 'index.html')]);
  });

  it('a server given the e2e build warns that it is one', () => {
    expect(h().serverLog()).toContain('is a browser-test build (vite build --mode e2e)');
  });
});
