/**
 * Wires the sync engine to the real world after sign-in: the device's Dexie database (its data
 * context's), the platform client, the browser clock, online/visibility events, the Web Lock (one
 * syncing tab, S10) and a BroadcastChannel so a tab that is not the leader can still ask for a
 * sync. It fills in the data context's `userId`, `client` and `sync` at start and clears them at
 * stop; each data context has its own runtime state (the app has one, a test may have several).
 */
import type { DataContext } from './context';
import type { PlatformClientLike } from './platform-like';
import type { User } from '../../shared/entities';
import type { SyncEngine } from './sync/engine';
import type { Clock, LockManagerLike } from './sync/types';
import { mustCompleteProfile } from '../domain/access';
import { watchRevocation } from './revocation';

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

const CHANNEL = 'passage-sync';
/** `revoked`: the leader's watch found this tablet revoked; every tab erases and says why. */
type Message = 'sync-now' | 'local-write' | 'server-reached' | { type: 'revoked'; reason: string };

interface Running {
  userId: string;
  pulls: boolean;
  engine: SyncEngine;
  teardown: () => void;
}

/** One device's runtime: its engine, and what start and stop leave for each other. */
interface RuntimeState {
  running: Running | null;
  /** Set while an engine whose chunk could not be fetched waits for the connection; stop() cancels it. */
  awaitingEngine: { userId: string; cancel: () => void } | null;
  /** Start and stop run one after another (serial). */
  chain: Promise<void>;
  /** Told when an administrator revoked this tablet and its copy must go (issue #21.2). */
  revokedListeners: Set<(reason: string) => void>;
}

const runtimes = new WeakMap<DataContext, RuntimeState>();

function stateOf(ctx: DataContext): RuntimeState {
  let state = runtimes.get(ctx);
  if (!state) runtimes.set(ctx, (state = { running: null, awaitingEngine: null, chain: Promise.resolve(), revokedListeners: new Set() }));
  return state;
}

/** Told when an administrator revoked this device and its copy must go (issue #21.2); returns the unsubscribe. */
export function onDeviceRevoked(ctx: DataContext, listener: (reason: string) => void): () => void {
  const { revokedListeners } = stateOf(ctx);
  revokedListeners.add(listener);
  return () => revokedListeners.delete(listener);
}

function browserLocks(): LockManagerLike | null {
  const locks = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManagerLike }).locks : undefined;
  return locks && typeof locks.request === 'function' ? locks : null;
}

export interface StartArgs {
  client: PlatformClientLike;
  user: Pick<User, 'id'> & Partial<Pick<User, 'email' | 'role' | 'approved' | 'requested_access_date'>>;
}

/**
 * A user who has not been approved yet may read nothing but their own profile (docs/design.md's
 * permission table): pulling would earn one 403 per entity every cycle. Such an engine only pushes
 * (the profile submission travels through the outbox); after approval the next sign-in or reload
 * starts a full engine.
 */
function mayPull(user: StartArgs['user']): boolean {
  return !mustCompleteProfile({ role: user.role, approved: user.approved, requested_access_date: user.requested_access_date });
}

/**
 * Start and stop run one after another: React may call them twice in a row (StrictMode effects),
 * and two engines in one tab would be one leader too many.
 */
function serial(ctx: DataContext, work: () => Promise<void>): Promise<void> {
  const state = stateOf(ctx);
  const next = state.chain.then(work);
  state.chain = next.catch(() => undefined);
  return next;
}

/** Start syncing this device for this user (after sign-in or an offline start with a cached user). */
export function startDataSync(ctx: DataContext, args: StartArgs): Promise<void> {
  return serial(ctx, () => start(ctx, args));
}

/** Stop syncing (logout). The queue stays in Dexie; clearLocalData is a separate, explicit step. */
export function stopDataSync(ctx: DataContext): Promise<void> {
  return serial(ctx, () => stop(ctx));
}

async function start(ctx: DataContext, { client, user }: StartArgs): Promise<void> {
  const state = stateOf(ctx);
  const { db } = ctx;
  const pulls = mayPull(user);
  const { running } = state;
  if (running && running.userId === user.id && running.pulls === pulls) {
    // Same person signing in again (e.g. after a 401): fresh client, same engine and queue.
    ctx.client = client;
    running.engine.resume();
    return;
  }
  await stop(ctx);

  // Local work needs only the database and the user: set them before the engine arrives.
  Object.assign(ctx, { client, userId: user.id, sync: null });
  // The engine is its own chunk (issue #11.6): the first page renders from the mirror without it.
  // Should it not arrive (the connection went in the first seconds), changes still queue in the
  // outbox, and the engine starts when the connection returns.
  const loaded = await Promise.all([import('./sync/engine'), import('./sync/platform-transport')]).catch(() => null);
  if (!loaded) {
    if (typeof window === 'undefined') return;
    const retry = () => {
      state.awaitingEngine = null;
      void startDataSync(ctx, { client, user });
    };
    window.addEventListener('online', retry, { once: true });
    state.awaitingEngine = { userId: user.id, cancel: () => window.removeEventListener('online', retry) };
    return;
  }
  const [{ SyncEngine }, { createPlatformTransport }] = loaded;
  const engine = new SyncEngine({
    db,
    transport: createPlatformTransport(client, user.id),
    clock: realClock,
    userId: user.id,
    random: Math.random,
    lock: browserLocks(),
    // Issue #22: the tablet holds the sites of this user's cohorts; an administrator every site.
    scope: user.email ? { email: user.email, everySite: user.role === 'admin' } : null,
    ...(pulls ? {} : { entities: [] }),
  });
  const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(CHANNEL) : null;
  const send = (message: Message) => channel?.postMessage(message);

  ctx.sync = {
    // In a follower tab the engine is idle; the leader hears the request over the channel.
    syncNow: () => (engine.isLeader ? engine.syncNow() : send('sync-now')),
    localWrite: () => (engine.isLeader ? engine.localWrite() : send('local-write')),
  };

  const tellRevoked = (reason: string) => {
    for (const listener of state.revokedListeners) listener(reason);
  };
  const onMessage = (event: MessageEvent<Message>) => {
    if (typeof event.data === 'object' && event.data?.type === 'revoked') tellRevoked(String(event.data.reason));
    else if (event.data === 'sync-now') engine.syncNow();
    else if (event.data === 'local-write') engine.localWrite();
    else if (event.data === 'server-reached') engine.serverReached();
  };
  // Issue #9.3: a 2xx answer to any request of the app (start-up's auth check, a usage log, a
  // follower tab's call) means the server is back: the leader syncs now instead of when its
  // offline backoff says. The engine ignores it when it was not waiting.
  const stopListening = client.onAnswer?.((answer) => {
    if (!answer.ok) return;
    if (engine.isLeader) engine.serverReached();
    else send('server-reached');
  });
  // S18: the leader asks, or hears it on its change stream; followers hear it from the leader.
  const revocation = watchRevocation(ctx, {
    syncNow: () => engine.syncNow(),
    signals: engine,
    onRevoked: (reason) => {
      send({ type: 'revoked', reason });
      tellRevoked(reason);
    },
  });
  const onOnline = () => engine.connectionChanged(true);
  const onOffline = () => engine.connectionChanged(false);
  const onVisibility = () => engine.setVisible(document.visibilityState === 'visible');
  channel?.addEventListener('message', onMessage);
  if (typeof window !== 'undefined') {
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
  }
  if (typeof document !== 'undefined') {
    document.addEventListener('visibilitychange', onVisibility);
  }

  state.running = {
    userId: user.id,
    pulls,
    engine,
    teardown: () => {
      revocation.stop();
      stopListening?.();
      channel?.removeEventListener('message', onMessage);
      channel?.close();
      if (typeof window !== 'undefined') {
        window.removeEventListener('online', onOnline);
        window.removeEventListener('offline', onOffline);
      }
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisibility);
    },
  };
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') engine.setVisible(false);
  await engine.start();
  // A page opened with no network gets no 'offline' event. The browser knows it is offline, and its
  // 'online' will announce the return: the engine need not probe the server meanwhile (S9).
  if (typeof navigator !== 'undefined' && navigator.onLine === false) engine.connectionChanged(false);
}

async function stop(ctx: DataContext): Promise<void> {
  const state = stateOf(ctx);
  // A logout while the engine's chunk was still awaited: no engine to stop, but the user leaves the
  // data context (no op is queued in their name any more) and the retry is cancelled.
  const waiting = state.awaitingEngine;
  state.awaitingEngine = null;
  if (waiting) {
    waiting.cancel();
    if (ctx.userId === waiting.userId) Object.assign(ctx, { sync: null, userId: null });
  }
  const current = state.running;
  state.running = null;
  if (!current) return;
  current.teardown();
  await current.engine.stop();
  // The client stays: it is the shell's (set at boot), and online-only calls use it signed out too.
  if (ctx.userId === current.userId) Object.assign(ctx, { sync: null, userId: null });
}

/** This device's running engine, for diagnostics and tests. */
export function currentEngine(ctx: DataContext): SyncEngine | null {
  return stateOf(ctx).running?.engine ?? null;
}
