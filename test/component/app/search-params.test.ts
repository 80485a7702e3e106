import { expect, it } from 'vitest';
import { idSearch, parseSearch, stringifySearch } from '../../../src/app/search-params';

it('ids come back exactly as written (no JSON coercion)', () => {
  expect(parseSearch('?id=123')).toEqual({ id: '123' });
  expect(parseSearch('?id=1e5&x=true')).toEqual({ id: '1e5', x: 'true' });
  expect(idSearch(parseSearch('?id=00042'))).toEqual({ id: '00042' });
  expect(idSearch({})).toEqual({ id: '' });
});

it('stringify drops empty values and encodes the rest', () => {
  expect(stringifySearch({ id: 'a b', empty: '', none: undefined })).toBe('?id=a+b');
  expect(stringifySearch({})).toBe('');
});
