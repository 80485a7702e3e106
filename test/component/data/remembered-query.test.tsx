import Dexie, { type Table } from 'dexie';
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useRememberedLiveQuery } from '../../../src/data/queries/remembered';

/**
 * A list page opened again shows its last answer at once and re-reads after that answer is on
 * screen, only when its tables were written meanwhile (src/data/queries/remembered.ts): never a
 * stale list for good, never a re-read that holds the first frame back or lands on the first
 * keystrokes for nothing.
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
    const first = renderHook(() => useRememberedLiveQuery('rows', [db.rows], names));
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
      const again = renderHook(() => useRememberedLiveQuery('rows', [db.rows], names));
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
    const first = renderHook(() => useRememberedLiveQuery('rows-live', [db.rows], names));
    await waitFor(() => expect(first.result.current).toEqual(['Ana', 'Ben']));
    first.unmount();
    const again = renderHook(() => useRememberedLiveQuery('rows-live', [db.rows], names));
    // Past the next frame: the live query runs (it finds nothing written, so reads no rows).
    await new Promise((r) => setTimeout(r, 400));
    await db.rows.delete('a');
    await waitFor(() => expect(again.result.current).toEqual(['Ben']));
    again.unmount();
  });

  it('opened again with nothing written meanwhile: the same answer, no rows read, and later changes still show', async () => {
    const first = renderHook(() => useRememberedLiveQuery('rows-same', [db.rows], names));
    await waitFor(() => expect(first.result.current).toEqual(['Ana', 'Ben']));
    const answer = first.result.current;
    first.unmount();
    const readsBefore = reads;

    const again = renderHook(() => useRememberedLiveQuery('rows-same', [db.rows], names));
    expect(again.result.current).toBe(answer);
    // Well past the next frame and the hidden-tab fallback: the live query has started.
    await new Promise((r) => setTimeout(r, 400));
    expect(reads).toBe(readsBefore);
    expect(again.result.current).toBe(answer);

    await db.rows.put({ id: 'b', name: 'Bea' });
    await waitFor(() => expect(again.result.current).toEqual(['Ana', 'Bea']));
    expect(reads).toBeGreaterThan(readsBefore);
    again.unmount();
  });

  it('a write through another connection to the database while the page was closed is read', async () => {
    const first = renderHook(() => useRememberedLiveQuery('rows-other', [db.rows], names));
    await waitFor(() => expect(first.result.current).toEqual(['Ana', 'Ben']));
    first.unmount();

    const other = new Dexie(db.name) as typeof db;
    other.version(1).stores({ rows: 'id' });
    await other.rows.delete('a');
    other.close();

    const again = renderHook(() => useRememberedLiveQuery('rows-other', [db.rows], names));
    expect(again.result.current).toEqual(['Ana', 'Ben']);
    await waitFor(() => expect(again.result.current).toEqual(['Ben']));
    again.unmount();
  });

  it('a write to any of the listed tables is read; a write elsewhere is not', async () => {
    const both = new Dexie(`remembered-two-${Date.now()}-${Math.random()}`) as Dexie & { rows: Table<Row, string>; tags: Table<Row, string>; other: Table<Row, string> };
    both.version(1).stores({ rows: 'id', tags: 'id', other: 'id' });
    await both.rows.put({ id: 'a', name: 'Ana' });
    await both.tags.put({ id: 't', name: 'new' });
    let joinReads = 0;
    const join = async () => {
      joinReads += 1;
      const [rows, tags] = await Promise.all([both.rows.toArray(), both.tags.toArray()]);
      return [...rows, ...tags].map((r) => r.name);
    };
    try {
      const first = renderHook(() => useRememberedLiveQuery('join', [both.rows, both.tags], join));
      await waitFor(() => expect(first.result.current).toEqual(['Ana', 'new']));
      first.unmount();

      await both.other.put({ id: 'x', name: 'unrelated' });
      const second = renderHook(() => useRememberedLiveQuery('join', [both.rows, both.tags], join));
      await new Promise((r) => setTimeout(r, 400));
      expect(joinReads).toBe(1);
      second.unmount();

      await both.tags.put({ id: 't', name: 'renamed' });
      const third = renderHook(() => useRememberedLiveQuery('join', [both.rows, both.tags], join));
      expect(third.result.current).toEqual(['Ana', 'new']);
      await waitFor(() => expect(third.result.current).toEqual(['Ana', 'renamed']));
      expect(joinReads).toBe(2);
      third.unmount();
    } finally {
      both.close();
      await both.delete();
    }
  });

  it('an answer read from another database is never kept for this one', async () => {
    const first = renderHook(() => useRememberedLiveQuery('rows-db', [db.rows], names));
    await waitFor(() => expect(first.result.current).toEqual(['Ana', 'Ben']));
    first.unmount();

    const second = new Dexie(`remembered-second-${Date.now()}-${Math.random()}`) as typeof db;
    second.version(1).stores({ rows: 'id' });
    await second.rows.put({ id: 'z', name: 'Zoe' });
    const fromSecond = () => second.rows.toArray().then((rows) => rows.map((r) => r.name));
    try {
      const again = renderHook(() => useRememberedLiveQuery('rows-db', [second.rows], fromSecond));
      await waitFor(() => expect(again.result.current).toEqual(['Zoe']));
      again.unmount();
    } finally {
      second.close();
      await second.delete();
    }
  });
});

