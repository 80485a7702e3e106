import type { KeySource } from './middleware';
import { newDataKey } from './keys';
import { forgetKey } from './cipher';

/**
 * The data key while Passage is unlocked (issue #14.2: "the key lives in memory only while
 * unlocked"). One per database; the vault functions fill and empty it, the middleware reads it.
 */
export class KeyRing implements KeySource {
  #key: Uint8Array | null;
  readonly #listeners = new Set<() => void>();

  constructor(key: Uint8Array | null = null) {
    this.#key = key;
  }

  /** A ring holding a fresh random key: a database of its own (tests, the bench), its rows sealed. */
  static withNewKey(): KeyRing {
    return new KeyRing(newDataKey());
  }

  key(): Uint8Array | null {
    return this.#key;
  }

  get unlocked(): boolean {
    return this.#key !== null;
  }

  set(key: Uint8Array): void {
    // The key this replaces stays with whoever holds it; what the cipher worked out from it does not.
    if (this.#key && this.#key !== key) forgetKey(this.#key);
    this.#key = key;
    this.#emit();
  }

  /** Forget the key (and overwrite its bytes and what the cipher worked out from them: no copy lingers). */
  clear(): void {
    if (!this.#key) return;
    forgetKey(this.#key);
    this.#key.fill(0);
    this.#key = null;
    this.#emit();
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit() {
    for (const listener of this.#listeners) listener();
  }
}
