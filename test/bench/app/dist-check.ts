/**
 * The bench measures the built app. The repository's dist/ is used when it is newer than every
 * source file; otherwise the app is built into a private directory (never over the shared dist/,
 * which other test runs may be serving at that moment).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export interface Dist {
  /** The directory holding dist/ (the server's working directory). */
  serveRoot: string;
  distDir: string;
  built: boolean;
}

export function ensureDist(root: string): Dist {
  const index = join(root, 'dist/index.html');
  const sources = Math.max(
    newestMtime(join(root, 'src')),
    newestMtime(join(root, 'public')),
    statSync(join(root, 'index.html')).mtimeMs,
    statSync(join(root, 'vite.config.ts')).mtimeMs,
    statSync(join(root, 'scripts/precompress.mjs')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return { serveRoot: root, distDir: join(root, 'dist'), built: false };
  const serveRoot = mkdtempSync(join(tmpdir(), 'passage-bench-dist-'));
  const distDir = join(serveRoot, 'dist');
  const r = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', distDir, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('vite build failed: the bench measures the built app');
  return { serveRoot, distDir, built: true };
}
