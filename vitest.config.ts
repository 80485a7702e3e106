import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * The test files under `dir` whose source calls `vi.mock(`: a module mock is hoisted into the
 * module graph, so such a file runs isolated (its own module graph), and the other files of its
 * kind share one graph per worker (`isolate: false`; issue #27.5).
 */
function mockingFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.test\.tsx?$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    if (readFileSync(path, 'utf8').includes('vi.mock(')) found.push(path);
  }
  return found;
}
const unitMocking = mockingFiles('test/unit');
const componentMocking = mockingFiles('test/component');

const component = {
  environment: 'jsdom' as const,
  setupFiles: ['test/component/setup.ts'],
  testTimeout: 30_000,
};

// The product in four layers, one runner: pure and server tests in Node, screens in jsdom, the
// engine against the in-process server, and the product in Chromium (e2e, needs a built dist/).
// Unit and component files share their worker's modules (isolate: false; component files take
// ~60 CPU-s instead of ~200) except the files that mock a module, which run in the
// `…-isolated` projects (see mockingFiles). test/component/setup.ts starts each component file as
// a new browser profile, with an IndexedDB of its own. Integration and browser-test files share
// too (no file mocks a module): integration files took 292 CPU-s instead of 318 (their time is
// PGlite's, not module loading), and each browser-test file loaded playwright-core again.
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', environment: 'node', isolate: false, include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'], exclude: unitMocking },
      },
      {
        extends: true,
        test: { name: 'unit-isolated', environment: 'node', include: unitMocking.length ? unitMocking : ['no-such-file'] },
      },
      {
        extends: true,
        test: { name: 'component', ...component, isolate: false, include: ['test/component/**/*.test.tsx', 'test/component/**/*.test.ts'], exclude: componentMocking },
      },
      {
        extends: true,
        test: { name: 'component-isolated', ...component, include: componentMocking.length ? componentMocking : ['no-such-file'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          isolate: false,
          globalSetup: ['test/support/pglite-template.ts', 'test/support/test-databases.ts'],
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          isolate: false,
          globalSetup: ['test/support/pglite-template.ts', 'test/support/test-databases.ts'],
          include: ['test/e2e/**/*.test.ts'],
          // A hang guard, not a goal: with both cores full, offline.test.ts's day took 100 s.
          testTimeout: 240_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
