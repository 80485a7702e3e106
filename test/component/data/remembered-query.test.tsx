import Dexie, { type Table } from 'dexie';
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useRememberedLiveQuery } from '../../../src/data/queries/remembered';

/**
 * A list page opened again shows its last answer at once and re-reads after that answer is on
 * screen (src/data/queries/remembered.ts): never a stale list for good, never a re-read that holds
 * the first frame back.
 */
interface Row {
  id: string;
  name: string;
}

let db: Dexie & { rows: Table<Row, string> };
let reads = 0;

beforeEach(async () => {
  db = new Dexie(`remembered-${Date.now()}-${Math.random()}`) as typeof db;
  db.version(1).stores({ rows: 'id' });
  await db.rows.bulkPut([
    { id: 'a', name: 'Ana' },
    { id: 'b', name: 'Ben' },
  ]);
  reads = 0;
});

afterEach(async () => {
  db.close();
  await db.delete();
});

const names = () => {
  reads += 1;
  return db.rows.toArray().then((rows) => rows.map((r) => r.name));
};

describe('a remembered list query', () => {
  it('the first visit reads; the next shows that answer at once, then what changed while it was closed', async () => {
    const first = renderHook(() => useRememberedLiveQuery('rows', names));
    expect(first.result.current).toBeUndefined();
    await waitFor(() => expect(first.result.current).toEqual(['Ana', 'Ben']));
    first.unmount();

    await db.rows.put({ id: 'c', name: 'Cy' });
    const readsBefore = reads;
    // Frames held back: the browser has not painted the remembered answer yet.
    const frames: FrameRequestCallback[] = [];
    const realFrame = window.requestAnimationFrame;
    window.requestAnimationFrame = (cb) => frames.push(cb);
    try {
      const again = renderHook(() => useRememberedLiveQuery('rows', names));
      expect(again.result.current).toEqual(['Ana', 'Ben']);
      await new Promise((r) => setTimeout(r, 50));
      // No read before the frame that shows the remembered answer.
      expect(reads).toBe(readsBefore);
      expect(again.result.current).toEqual(['Ana', 'Ben']);
      for (const frame of frames.splice(0)) frame(performance.now());
      await waitFor(() => expect(again.result.current).toEqual(['Ana', 'Ben', 'Cy']));
      expect(reads).toBeGreaterThan(readsBefore);
      again.unmount();
    } finally {
      window.requestAnimationFrame = realFrame;
    }
  });

  it('keeps following changes once the re-read started', async () => {
    const first = renderHook(() => useRememberedLiveQuery('rows-live', names));
    await waitFor(() => expect(first.result.current).toEqual(['Ana', 'Ben']));
    first.unmount();
    const again = renderHook(() => useRememberedLiveQuery('rows-live', names));
    await waitFor(() => expect(reads).toBeGreaterThan(1));
    await db.rows.delete('a');
    await waitFor(() => expect(again.result.current).toEqual(['Ben']));
    again.unmount();
  });
});
