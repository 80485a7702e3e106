// The server as one JavaScript module: server/main.ts and every source file it imports (server/,
// shared/), bundled by esbuild into .build/server/main.mjs, with the packages left to node_modules.
// `npm start`, the Docker image and every server a test starts run it with plain `node`. The
// operator commands (admin:create, backup, restore, audit:verify; COMMANDS) are bundled the same
// way, each into .build/server/<name>.mjs, and `npm run <command>` runs them (scripts/command.mjs).
//
// Why: under `node --import tsx` a start costs about 1.3 CPU-seconds before the server listens (tsx
// resolves and transforms each of its ~120 source files through a loader thread); the bundle starts
// in about 0.55 (measured on PostgreSQL, 3 starts each, issue #27.5). Tests start ~46 servers a run,
// and a restarted service is back sooner. esbuild is what tsx and Vite already run. An operator
// command's start (its usage message): 0.15 CPU-s instead of 0.5-0.6 under tsx, three runs each.
//
// PGlite's worker (server/store/pglite-worker.mjs) is plain JavaScript that the server starts by
// URL next to itself, so it is copied beside the bundle. A build writes only files whose content
// changed, each through a rename, so two test runs that build at once never read half a file.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = join(ROOT, '.build/server/main.mjs');

function writeIfChanged(file, content) {
  if (existsSync(file) && readFileSync(file).equals(content)) return;
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, content);
  renameSync(partial, file);
}

/** The operator commands: `npm run <script>` → the bundle of `source` (scripts/command.mjs). */
export const COMMANDS = {
  'admin-create': 'scripts/admin-create.ts',
  backup: 'scripts/backup.ts',
  restore: 'scripts/restore.ts',
  'audit-verify': 'scripts/audit-verify.ts',
};

/** Builds .build/server/main.mjs (about 0.2 s); returns the bundle's path. */
export function buildServer() {
  return bundle('server/main.ts', SERVER_BUNDLE);
}

/** Builds the bundle of one of COMMANDS into .build/server/<name>.mjs; returns its path. */
export function buildCommand(name) {
  const source = COMMANDS[name];
  if (!source) throw new Error(`No operator command ${name}; there are ${Object.keys(COMMANDS).join(', ')}.`);
  return bundle(source, join(dirname(SERVER_BUNDLE), `${name}.mjs`));
}

async function bundle(source, outfile) {
  const result = await build({
    entryPoints: [join(ROOT, source)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    outfile,
    logLevel: 'warning',
    banner: { js: `// Built by scripts/build-server.mjs from ${source}; do not edit.` },
  });
  for (const file of result.outputFiles) writeIfChanged(file.path, Buffer.from(file.contents));
  writeIfChanged(join(dirname(outfile), 'pglite-worker.mjs'), readFileSync(join(ROOT, 'server/store/pglite-worker.mjs')));
  return outfile;
}

// `node scripts/build-server.mjs` (the Docker image): the server and every operator command.
if (import.meta.url === `file://${process.argv[1]}`) {
  await Promise.all([buildServer(), ...Object.keys(COMMANDS).map(buildCommand)]);
}
