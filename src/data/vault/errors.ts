/** The device's data key is not in memory (the app is locked, or no PIN was set yet). */
export class VaultLockedError extends Error {
  constructor(table: string) {
    super(`Passage is locked: ${table} cannot be read or written until it is unlocked`);
    this.name = 'VaultLockedError';
  }
}
