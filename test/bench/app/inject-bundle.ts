/**
 * Builds inject/bench-hooks.ts into one IIFE string with Vite's library mode (no PWA or React
 * plugins: it is plain data-layer code), for page.evaluate. Built once per run, in memory.
 */
import { resolve } from 'node:path';
import { build, type Rollup } from 'vite';

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
