/**
 * The Store contract (server/store/types.ts), run against every implementation: embedded PGlite and a
 * real PostgreSQL. Each test works in its own fresh app id, so tests never see each other's rows.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { Store } from '../../../server/store/types';
import { registerAuthAndLogTests } from './auth-log-contract';
import { registerClockTests } from './clock-contract';
import type { ContractContext, MakeStore } from './contract-helpers';
import { registerFilterContractTests } from './filter-contract';
import { registerQueryContractTests } from './query-contract';
import { registerRecordTests } from './record-contract';

export type { MakeStore, StoreFactoryOptions } from './contract-helpers';

export function registerStoreContractTests(name: string, makeStore: MakeStore, opts: { sharedDatabase: boolean }) {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(async () => {
      await store?.close();
    });
    const ctx: ContractContext = { store: () => store, makeStore, sharedDatabase: opts.sharedDatabase };

    describe('records', () => registerRecordTests(ctx));
    describe('filters', () => registerFilterContractTests(ctx));
    describe('sort, limit, skip, fields', () => registerQueryContractTests(ctx));
    describe('updated_date order', () => registerClockTests(ctx));
    describe('auth and logs', () => registerAuthAndLogTests(ctx));
  });
}
