import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * House style (docs/design.md, issue #27.6): a commit subject is at most 72 characters, in the
 * imperative; the numbers and reasons go in the body, so `git log --oneline` can be scanned.
 * Checked for every commit from the one that started the rule (b4d8d49, issue #21) on; a copy of the
 * project without its history (an archive, a shallow clone that lacks it) has nothing to check.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const SINCE = 'b4d8d49';
const git = (...args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
const hasHistory = git('cat-file', '-e', `${SINCE}^{commit}`).status === 0;

describe('commit subjects (house style, issue #27.6)', () => {
  it.skipIf(!hasHistory)(`every subject since ${SINCE} fits 72 characters and says what it does in the imperative`, () => {
    const log = git('log', '--format=%h %s', `${SINCE}^..HEAD`).stdout.trim().split('\n').filter(Boolean);
    expect(log.length).toBeGreaterThan(0);
    const long = log.filter((l) => l.slice(l.indexOf(' ') + 1).length > 72);
    // An area may lead ('Bench: …', 'e2e: …'); the verb after it is not in the past or third person.
    const verb = (l: string) => l.slice(l.indexOf(' ') + 1).replace(/^[\w./#-]+: /, '');
    const notImperative = log.filter((l) => /^(?:Added|Fixed|Updated|Removed|Changed|Adds|Fixes|Updates|Removes|Changes)\b/i.test(verb(l)));
    expect(long).toEqual([]);
    expect(notImperative).toEqual([]);
  });
});
