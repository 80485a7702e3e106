/** Issue #21's one-time sign-in code and sessions on PGlite (the shared cases: sign-in-cases.ts). */
import { afterAll, beforeAll, describe } from 'vitest';
import { registerSignInTests } from './sign-in-cases';
import { startTestServer, type TestServer } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ withPasswords: true, store: 'pglite' });
});
afterAll(() => s?.close());

describe('one-time sign-in code and sessions on PGlite', () => {
  registerSignInTests(() => s);
});
