/**
 * The JavaScript the first page cannot render without: the entry scripts of dist/index.html
 * (script + modulepreload) and the Dashboard screen's chunk, each with every chunk it imports
 * statically. Chunks fetched early for later screens (preloads) are not part of it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["']\.\/([\w.-]+\.js)["']/g;

export function staticClosure(assetsDir: string, roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file) || !existsSync(join(assetsDir, file))) continue;
    seen.add(file);
    for (const m of readFileSync(join(assetsDir, file), 'utf8').matchAll(STATIC_IMPORT)) stack.push(m[1]);
  }
  return [...seen];
}

/** Paths (/assets/<file>) the first page needs; `firstScreen` is its chunk's name prefix, e.g. 'dashboard-page-'. */
export function firstPageFiles(distDir: string, firstScreen: string): string[] {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/(?:src|href)="\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1]);
  const assetsDir = join(distDir, 'assets');
  const screenChunk = readdirSync(assetsDir).find((f) => f.startsWith(firstScreen) && f.endsWith('.js'));
  const files = new Set(staticClosure(assetsDir, screenChunk ? [...entries, screenChunk] : entries));
  return [...files].map((f) => `/assets/${f}`);
}
