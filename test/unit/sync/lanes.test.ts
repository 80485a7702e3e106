import { describe, expect, it } from 'vitest';
import { runLanes } from '../../../src/data/sync/lanes';

/** A task the test finishes by hand, to see what runs at the same time. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('runLanes (pulls and reconciles of several entities, issue #11.3)', () => {
  it('runs at most `limit` at once and starts the next as a lane frees', async () => {
    const tasks = Array.from({ length: 6 }, () => deferred<string | null>());
    const started: number[] = [];
    const run = runLanes([0, 1, 2, 3, 4, 5], 4, (i) => (started.push(i), tasks[i].promise), (r) => r !== null);
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    tasks[2].resolve(null);
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    for (const t of tasks) t.resolve(null);
    expect(await run).toBeNull();
    expect(started).toHaveLength(6);
  });

  it('after a stop no new item starts, and it returns only when every running lane ended', async () => {
    const tasks = Array.from({ length: 5 }, () => deferred<string | null>());
    const started: number[] = [];
    let done = false;
    const run = runLanes([0, 1, 2, 3, 4], 2, (i) => (started.push(i), tasks[i].promise), (r) => r !== null).then((r) => ((done = true), r));
    await tick();
    tasks[0].resolve('offline');
    await tick();
    expect(started).toEqual([0, 1]);
    expect(done).toBe(false); // lane 1 still runs
    tasks[1].resolve(null);
    expect(await run).toBe('offline');
    expect(started).toEqual([0, 1]);
  });

  it('a thrown error is rethrown after the other lanes ended, and nothing new starts', async () => {
    const tasks = Array.from({ length: 4 }, () => deferred<null>());
    const started: number[] = [];
    let settled = false;
    const run = runLanes([0, 1, 2, 3], 2, (i) => (started.push(i), tasks[i].promise), () => false).finally(() => (settled = true));
    run.catch(() => {});
    await tick();
    tasks[0].reject(new Error('QuotaExceededError'));
    await tick();
    expect(settled).toBe(false);
    tasks[1].resolve(null);
    await expect(run).rejects.toThrow('QuotaExceededError');
    expect(started).toEqual([0, 1]);
  });
});
