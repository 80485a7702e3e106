/**
 * The server's drain switch (issue #25.5), shared by createApp's health routes and main.ts. On
 * SIGTERM main.ts calls `drain()`: from then on GET /readyz answers 503 at once, so the proxy stops
 * sending new requests here while the ones in flight finish.
 */
export interface Lifecycle {
  readonly draining: boolean;
  /** Starts draining; calling it again does nothing. */
  drain(): void;
}

export function createLifecycle(): Lifecycle {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
  };
}
