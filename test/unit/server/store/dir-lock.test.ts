import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../../../server/store/dir-lock';

describe('lockDataDir', () => {
  let dir = '';
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'passage-lock-')), 'data');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('creates the directory, holds it until released, then frees it', () => {
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'passage.lock'), 'utf8')).toBe(String(process.pid));
    expect(() => lockDataDir(dir)).toThrow(/already open in this process/);
    release();
    expect(existsSync(join(dir, 'passage.lock'))).toBe(false);
    lockDataDir(dir)();
  });

  it('refuses a directory held by another live process', () => {
    lockDataDir(dir)(); // creates the directory
    writeFileSync(join(dir, 'passage.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${process.ppid}`);
  });

  it('takes over the lock of a process that is gone', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    lockDataDir(dir)();
    writeFileSync(join(dir, 'passage.lock'), gone.stdout);
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'passage.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });
});
