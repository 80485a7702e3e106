import { describe, expect, it } from 'vitest';
import { detailView, withScope } from '../../../src/screens/parts/use-detail-record';

// Issue #27: the one rule of the four detail pages. '… not found' only when the first sync is done
// and the scope cannot explain the absence (S15, issue #9.5).
describe('detailView', () => {
  const row = { id: 'c1' };

  it('a record is shown whatever the first sync is doing', () => {
    for (const sync of ['checking', 'downloading', 'incomplete', 'ready'] as const) {
      expect(detailView(row, sync)).toEqual({ show: 'record', record: row });
    }
  });

  it('loading while the record, the first-sync status or the scope is being read', () => {
    expect(detailView(undefined, 'ready')).toEqual({ show: 'loading' });
    expect(detailView(null, 'checking')).toEqual({ show: 'loading' });
    expect(detailView(null, 'downloading')).toEqual({ show: 'loading' });
    expect(detailView(null, 'ready', 'unknown')).toEqual({ show: 'loading' });
  });

  it('offline with the first sync cut off: not here yet, never not found', () => {
    expect(detailView(null, 'incomplete')).toEqual({ show: 'not-here-yet' });
    expect(detailView(null, 'incomplete', 'maybe')).toEqual({ show: 'not-here-yet' });
  });

  it('a tablet holding some sites: beyond its scope; holding every site: not found', () => {
    expect(detailView(null, 'ready', 'maybe')).toEqual({ show: 'beyond-scope' });
    expect(detailView(null, 'ready', 'no')).toEqual({ show: 'not-found' });
    expect(detailView(null, 'ready')).toEqual({ show: 'not-found' });
  });

  it('withScope turns only a not-found view', () => {
    expect(withScope({ show: 'not-found' }, 'maybe')).toEqual({ show: 'beyond-scope' });
    expect(withScope({ show: 'not-found' }, 'unknown')).toEqual({ show: 'loading' });
    expect(withScope({ show: 'not-here-yet' }, 'maybe')).toEqual({ show: 'not-here-yet' });
    expect(withScope({ show: 'record', record: row }, 'maybe')).toEqual({ show: 'record', record: row });
  });
});
