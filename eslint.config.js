// ESLint (flat config): the layer map of docs/design.md made executable, plus
// typescript-eslint's and react-hooks' recommended rules. `npm run lint`; `npm test` runs it too.
import { readdirSync } from 'node:fs';
import Module from 'node:module';
import js from '@eslint/js';
import { createNodeResolver } from 'eslint-plugin-import-x';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// typescript-eslint parses with the TypeScript 5 compiler API; the project compiles with
// TypeScript 7 (the native port), whose package has no such API. `typescript-for-lint` is
// TypeScript 5.9 under another name: every `require('typescript')` made from inside
// typescript-eslint's packages is answered with it. Nothing else is redirected.
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (request === 'typescript' && /[\\/]node_modules[\\/](@typescript-eslint|typescript-eslint|ts-api-utils)[\\/]/.test(parent?.filename ?? '')) {
    return resolveFilename.call(this, 'typescript-for-lint', parent, ...rest);
  }
  return resolveFilename.call(this, request, parent, ...rest);
};
const { default: tseslint } = await import('typescript-eslint');

/** A zone of import-x/no-restricted-paths: files in `target` may not import from `from`. */
const zone = (target, from, message, except) => ({ target, from, message, ...(except ? { except } : {}) });

const layers = [
  // ui/ and domain/ are the bottom of the client: they import nothing of the layers above.
  ...['./src/ui', './src/domain'].map((target) =>
    zone(target, ['./src/app', './src/screens', './src/data', './src/platform', './src/pwa', './src/shell-api'], 'ui/ and domain/ import nothing of app/, shell-api/, screens/, data/, platform/ or pwa/ (docs/design.md: layers).'),
  ),
  // Screens read through data/queries, write through data/commands, reach the network only
  // through data/online, and never touch Dexie, the sync engine, the runtime or the platform client.
  zone('./src/screens', './src/data', 'Screens import data/queries, data/commands, data/online, data/errors and data/provider only (docs/design.md: screens never touch Dexie, the engine or HTTP).', ['./queries', './commands', './online', './errors.ts', './provider.tsx']),
  zone('./src/screens', ['./src/platform', './src/app/platform-context.ts'], 'Screens never hold the platform client: online-only actions go through data/online.'),
  // Screens and pwa/ reach the shell only through shell-api/ (pages, list search, the signed-in
  // user, the first-page signal): app/ is the shell above them, never a library below them.
  zone(['./src/screens', './src/pwa'], './src/app', 'Screens and pwa/ never import app/ (the shell above them): what they need of it lives in shell-api/.'),
  // shell-api/ is what the shell offers the screens: below them, it knows nothing of the layers.
  zone('./src/shell-api', ['./src/app', './src/screens', './src/data', './src/platform', './src/pwa'], 'shell-api/ holds what the shell offers screens (paths, list search, current user): it imports nothing of app/, screens/, data/, platform/ or pwa/.'),
  // The shell starts and stops the data layer and reads through it; Dexie and the engine stay inside.
  zone('./src/app', ['./src/data/db.ts', './src/data/sync', './src/data/context.ts', './src/data/vault'], 'app/ acts through data/runtime, data/session, data/device-lock, data/queries and data/commands, never Dexie, the engine or the vault.'),
  // pwa/ shows the sync state and the S11 gate: like a screen, it reads through data/queries.
  zone('./src/pwa', ['./src/data/db.ts', './src/data/sync', './src/data/context.ts', './src/platform'], 'pwa/ reads through data/queries and acts through data/commands or data/session, never Dexie or the engine.'),
  // Inside data/: the engine never calls up into commands, queries or online calls (no cycles).
  zone('./src/data/sync', ['./src/data/commands', './src/data/queries', './src/data/online', './src/data/runtime.ts'], 'data/sync is below data/commands and data/queries: it never imports them.'),
  zone(['./src/data/commands', './src/data/queries', './src/data/online'], './src/data/runtime.ts', 'Commands and queries act through data/context, never the runtime.'),
  // data/ is below the shell and the screens.
  zone('./src/data', ['./src/app', './src/screens', './src/pwa', './src/ui'], 'data/ never imports the shell, screens, pwa/ or ui/.'),
  zone('./src/platform', ['./src/app', './src/screens', './src/data', './src/pwa', './src/ui'], 'platform/ is the HTTP client only: it imports nothing of the app.'),
  // The store speaks its own errors (StoreError); the HTTP layer maps them once.
  zone('./server/store', ['./server/errors.ts', './server/routes', './server/http', './server/auth', './server/app.ts'], 'server/store knows nothing of HTTP: throw StoreError, server/errors.ts maps it.'),
  // The server and the client share only shared/.
  zone('./server', ['./src'], 'server/ never imports src/: what both sides must agree on lives in shared/.'),
  zone('./shared', ['./src', './server'], 'shared/ is imported by both sides and imports neither.'),
];

// One zone per screen folder, read from the tree so a new screen is covered the day it is made: a
// screen never imports another screen (shared parts go to ui/ or screens/parts).
const screens = readdirSync(new URL('./src/screens', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'parts')
  .map((d) => d.name);
const screenZones = screens.map((s) =>
  zone(`./src/screens/${s}`, './src/screens', 'A screen never imports another screen: move the shared part to ui/ or screens/parts.', [`./${s}`, './parts']),
);

export default tseslint.config(
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  { ignores: ['dist/**', 'dist-e2e/**', '.build/**', 'node_modules/**', 'coverage/**', '.tmp/**', 'dev-dist/**', 'bench/results*.json', 'test/bench/app/inject/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...layers, ...screenZones] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    // Screens, shared pieces, pure rules and the PWA parts read Dexie only through data/queries.
    files: ['src/screens/**', 'src/ui/**', 'src/domain/**', 'src/pwa/**', 'src/app/**', 'src/shell-api/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [
        { name: 'dexie', message: 'Read through data/queries, write through data/commands (docs/design.md).' },
        { name: 'dexie-react-hooks', message: 'Live queries live in data/queries (docs/design.md).' },
      ] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'test/component/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Reports only that the React Compiler would skip a component using TanStack Virtual; this
      // app does not use the compiler, so there is nothing to act on.
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    // Tests read JSON answers of the server under test loosely; `any` there is a cast, not a type.
    files: ['test/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
