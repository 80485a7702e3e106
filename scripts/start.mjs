// `npm start`: build the app when dist/ is missing or older than its sources, bundle the server
// (scripts/build-server.mjs, about 0.2 s, every start), then run it with node (it serves dist/ and
// the platform API on http://localhost:4173 with demo data).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer } from './build-server.mjs';

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = st.mtimeMs;
  for (const name of readdirSync(path)) t = Math.max(t, newest(join(path, name)));
  return t;
}

const built = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0;
const sources = Math.max(newest('src'), newest('public'), newest('index.html'), newest('vite.config.ts'), newest('scripts/precompress.mjs'), newest('package.json'));
if (!built || sources > built) {
  console.log('Building Passage…');
  const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

const child = spawn(process.execPath, [await buildServer()], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
