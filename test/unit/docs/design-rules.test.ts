import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/design.md is the rulebook (issue #27.1): every `S<n>` the code, the tests and the docs cite
 * must be a rule written there, every rule must be proved by a test that names it in its title,
 * and nothing may point at a copy of the design outside the repository.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const DESIGN = readFileSync(join(ROOT, 'docs/design.md'), 'utf8');

/** The rules as written: `- **S7 Order.** …`. */
const RULES = new Set([...DESIGN.matchAll(/^- \*\*(S\d+)\b/gm)].map((m) => m[1]));

const SKIP = new Set(['node_modules', 'dist', '.git', '.tmp', 'dev-dist', 'coverage', 'bench']);
function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.(ts|tsx|mjs|js|md)$/.test(name)) out.push(path);
  }
  return out;
}
const SOURCES = ['src', 'server', 'shared', 'test', 'scripts', 'docs'].flatMap((d) => files(join(ROOT, d)));
SOURCES.push(join(ROOT, 'README.md'), join(ROOT, 'eslint.config.js'));
const TEXT = new Map(SOURCES.map((f) => [relative(ROOT, f), readFileSync(f, 'utf8')]));

describe('docs/design.md, the repository\'s rulebook (issue #27.1)', () => {
  it('writes the sync rules S1–S15, each once', () => {
    const written = [...DESIGN.matchAll(/^- \*\*(S\d+)\b/gm)].map((m) => m[1]);
    expect(written).toEqual(Array.from({ length: written.length }, (_, i) => `S${i + 1}`));
    expect(written.length).toBeGreaterThanOrEqual(15);
  });

  it('every S<n> cited in the code, the tests and the docs is a rule written there', () => {
    const unknown: string[] = [];
    for (const [file, text] of TEXT) {
      for (const m of text.matchAll(/\bS(\d{1,2})\b(?![-.\d]*\s*(?:KB|MB|ms|s\b))/g)) {
        if (!RULES.has(`S${m[1]}`)) unknown.push(`${file}: S${m[1]}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('every rule is named in the title of a test that proves it', () => {
    const titled = new Set<string>();
    for (const [file, text] of TEXT) {
      if (!/\.test\.tsx?$/.test(file) || file.endsWith('design-rules.test.ts')) continue;
      for (const m of text.matchAll(/\b(?:it|describe|test)(?:\.each\([^)]*\))?\(\s*(['"`])((?:(?!\1).)*)\1/g)) {
        for (const id of m[2].matchAll(/\bS\d+\b/g)) titled.add(id[0]);
      }
    }
    expect([...RULES].filter((r) => !titled.has(r))).toEqual([]);
  });

  it('nothing points at a design document outside the repository', () => {
    const outside = [...TEXT].filter(([, text]) => /\.\.\/shared\/design\.md|shared\/design\.md/.test(text)).map(([f]) => f);
    expect(outside).toEqual([]);
  });
});
