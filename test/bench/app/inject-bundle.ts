/**
 * Builds inject/bench-hooks.ts into one IIFE string with Vite's library mode (no PWA or React
 * plugins: it is plain data-layer code), for page.evaluate. Built once per run, in memory.
 */
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { build, type Rollup } from 'vite';
import { BENCH_PIN } from './device-lock';

export async function buildHooksScript(root: string): Promise<string> {
  const out = (await build({
    configFile: false,
    root,
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      minify: false,
      lib: { entry: resolve(import.meta.dirname, 'inject/bench-hooks.ts'), formats: ['iife'], name: 'passageBenchHooks' },
    },
  })) as Rollup.RollupOutput[] | Rollup.RollupOutput;
  const output = Array.isArray(out) ? out[0].output : out.output;
  const chunk = output.find((o) => o.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('bench hooks bundle: no chunk');
  return chunk.code;
}

/**
 * Puts the hooks into the page (once per page load) and, with a PIN, unlocks their copy of the
 * data layer (issue #14: personal fields are sealed; `unlock` unwraps the device key with the PIN
 * as the app does). Without one (before a PIN is set) only hooks that read no sealed rows work.
 */
export async function injectHooks(page: Page, script: string, pin: string | null = BENCH_PIN): Promise<void> {
  if (!(await page.evaluate(() => '__benchHooks' in window))) await page.evaluate(script);
  if (pin) await page.evaluate((pin) => (window as unknown as { __benchHooks: { unlock(pin: string): Promise<number> } }).__benchHooks.unlock(pin), pin);
}
