/** Shared pieces of the Store contract suite: the context each part receives and small helpers. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Store } from '../../../server/store/types';
import { toHttpError } from '../../../server/errors';

export interface StoreFactoryOptions {
  now?: () => number;
}
export type MakeStore = (options?: StoreFactoryOptions) => Promise<Store>;

export interface ContractContext {
  store: () => Store;
  makeStore: MakeStore;
  /** Several stores (think: server processes) can share one database. */
  sharedDatabase: boolean;
}

export const meta = { by: 'coach@example.org', byId: 'user-1' };
export const freshApp = () => `app-${randomUUID()}`;
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export async function expect400(work: Promise<unknown>, message?: RegExp) {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  // What the client sees: the store's error as the HTTP layer maps it.
  expect(toHttpError(err), 'expected a 400').toMatchObject({ status: 400 });
  if (message) expect((err as Error).message).toMatch(message);
}
