/**
 * The JavaScript the first page cannot render without: the entry scripts of dist/index.html
 * (script + modulepreload) and the first screen's chunks, each with every chunk it imports
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

/**
 * Paths (/assets/<file>) the first page needs; `firstScreen` names its chunks by prefix, e.g.
 * ['app-routes-', 'app-layout-', 'dashboard-page-'] for the Dashboard inside the app's layout.
 */
export function firstPageFiles(distDir: string, firstScreen: readonly string[]): string[] {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/(?:src|href)="\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1]);
  const assetsDir = join(distDir, 'assets');
  const chunks = readdirSync(assetsDir).filter((f) => f.endsWith('.js') && firstScreen.some((prefix) => f.startsWith(prefix)));
  const files = new Set(staticClosure(assetsDir, [...entries, ...chunks]));
  return [...files].map((f) => `/assets/${f}`);
}

/**
 * The Dashboard inside the app's layout, through the router: what a returning start that opens
 * without the PIN renders first (vite.config.ts builds the three into the dashboard-page chunk; the
 * header's status mounts after the page, src/app/screens.ts).
 */
export const DASHBOARD_FIRST_PAGE = ['app-routes-', 'app-layout-', 'dashboard-page-'] as const;
