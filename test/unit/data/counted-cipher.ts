import type * as Cipher from '../../../src/data/vault/cipher';

/**
 * Counts each record the sealing layer opens. In a test file:
 *   vi.mock('<path>/src/data/vault/cipher', async (original) => (await import('<path>/counted-cipher')).countingCipher(original));
 * then read and reset `opens.count`.
 */
export const opens = { count: 0 };

export async function countingCipher(importOriginal: () => Promise<typeof Cipher>): Promise<typeof Cipher> {
  const real = await importOriginal();
  return {
    ...real,
    openJson: <T = unknown>(...args: Parameters<typeof Cipher.openJson>): T => {
      opens.count += 1;
      return real.openJson<T>(...args);
    },
  };
}
