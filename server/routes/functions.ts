/**
 * Backend functions: POST /api/apps/:appId/functions/:name (platform-contract.md 5.5; the client's
 * `functions.invoke(name, params)`), each with a JSON body and a `Cache-Control: no-store` answer.
 *
 * `deviceKey` { device_id } → { key, previous, policy } (issue #21). The device's server key wraps
 * its local data key besides the PIN: a second factor, so it is released only to an approved,
 * active account, on a fresh sign-in (auth_time at most 5 minutes old by this server's clock), to
 * the user the device id is registered to (its first release registers it), at most 5 times per
 * user per 15 minutes; every release is recorded, and rotates the key (`previous` is the key the
 * device held, so it can re-wrap). Keys are stored wrapped (auth/device-keys.ts), never logged.
 *
 * `deviceStatus` { device_id } → { status, mode?, reason?, revoked_date? } for the caller's own
 * devices; `listDevices`, `revokeDevice` (mode flush: the tablet sends what waits, then erases) and
 * `revokeUser` (mode erase on every device, every session ended) are for administrators; both
 * tell this instance's open change streams of the device or user at once (`event: revoked`).
 *
 * `scopePull` { added, removed, pins, state } → { scope, entities } (issue #22.5, scope-pull.ts): a
 * tablet's whole scope in one request, an optional extension the tablet uses when present.
 * `changeFeed` { cursor, scope?, limit? } → { changes, cursor, more, scope? } (issue #24.1, change-feed.ts):
 * every change the caller may see since a cursor, in commit order, in one request; optional too.
 * `participantSearch` { q, sort?, limit? } → participants (participant-search.ts): the online search
 * beyond the tablet's sites, with the typed words in the body, never in a URL.
 * `participantDuplicates` { cdcr_number?, date_of_birth? } → { matches } (participant-duplicates.ts):
 * the possible duplicates of an intake across the academy (issue #23.7).
 */
import { Hono, type Context } from 'hono';
import { newDeviceKey, unwrapDeviceKey, wrapDeviceKey, type KeyPlace } from '../auth/device-keys';
import { DEVICE_REVOKED_MESSAGE } from '../auth/principal';
import { badDeviceId, DEVICE_ID } from '../auth/sessions';
import { HttpError, forbidden, notFound } from '../errors';
import { readJson } from '../http/json-body';
import type { DeviceRecord } from '../store/types';
import { changeFeed } from './change-feed';
import { authorize, checkApp, sourceOf, type ServerContext } from './context';
import { recordEvent } from '../audit/context';
import { participantDuplicates } from './participant-duplicates';
import { participantSearch } from './participant-search';
import { scopePull } from './scope-pull';

/** How old a sign-in may be for a key release: long enough to set a PIN right after it. */
export const FRESH_SIGN_IN_SECONDS = 5 * 60;
/** Releases per device in the window (one tablet set up again and again: someone is guessing). */
export const MAX_KEY_RELEASES = 5;
/** Releases per account in the window, across its tablets (a coach may set up several at once). */
export const MAX_KEY_RELEASES_PER_USER = 20;
export const KEY_RELEASE_WINDOW_MS = 15 * 60 * 1000;
const MAX_REASON_LENGTH = 500;

type Body = Record<string, unknown>;
type Handler = (ctx: ServerContext, c: Context, body: Body, hooks: FunctionHooks) => Promise<unknown>;

const HANDLERS: Record<string, Handler> = { deviceKey, deviceStatus, listDevices, revokeDevice, revokeUser, scopePull, changeFeed, participantSearch, participantDuplicates };

/** What the functions tell the rest of the server (app.ts wires it to the change streams). */
export interface FunctionHooks {
  /** Devices were revoked: open change streams of the device, or of every device of the user, are re-checked. */
  revoked?: (target: { deviceId: string } | { userId: string }) => Promise<void>;
}

export function functionRoutes(ctx: ServerContext, hooks: FunctionHooks = {}) {
  const r = new Hono();

  r.post('/:appId/functions/:name', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const name = c.req.param('name');
    if (!Object.hasOwn(HANDLERS, name)) throw notFound('No such function');
    const answer = await HANDLERS[name](ctx, c, await bodyOf(c), hooks);
    c.header('Cache-Control', 'no-store');
    return c.json(answer);
  });

  return r;
}

/** The parameters object; an empty body reads as {} (the official client may send none). */
async function bodyOf(c: Context): Promise<Body> {
  const body = (await readJson(c)) ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'BAD_REQUEST', 'The body must be a JSON object');
  return body as Body;
}

function deviceIdOf(body: Body): string {
  const id = Object.hasOwn(body, 'device_id') ? body.device_id : undefined;
  if (typeof id !== 'string' || !DEVICE_ID.test(id)) throw badDeviceId();
  return id;
}

function reasonOf(body: Body): string {
  const reason = Object.hasOwn(body, 'reason') ? body.reason : undefined;
  if (reason === undefined || reason === null || (typeof reason === 'string' && reason.trim() === '')) return DEVICE_REVOKED_MESSAGE;
  if (typeof reason !== 'string' || reason.length > MAX_REASON_LENGTH) throw new HttpError(400, 'BAD_REQUEST', `reason must be text of at most ${MAX_REASON_LENGTH} characters`);
  return reason.trim();
}

async function deviceKey(ctx: ServerContext, c: Context, body: Body) {
  const { user, claims } = await authorize(ctx, c, 'device_key', null);
  const deviceId = deviceIdOf(body);
  const now = ctx.now();
  // The server's clock decides: a token without auth_time (issued before issue #21) is not fresh.
  if (claims.auth_time === undefined || now.getTime() / 1000 - claims.auth_time > FRESH_SIGN_IN_SECONDS) {
    throw new HttpError(403, 'FRESH_SIGN_IN_REQUIRED', 'Sign in with your password again to set up this tablet.');
  }
  const place: KeyPlace = { app: ctx.appId, userId: user.id, deviceId };
  const key = newDeviceKey();
  const held: { previous: Uint8Array | null } = { previous: null };
  const release = { deviceId, userId: user.id, source: sourceOf(ctx, c), since: new Date(now.getTime() - KEY_RELEASE_WINDOW_MS).toISOString() };
  // Issue #26: every release, and every refused one, is in the audit trail.
  const audit = { action: 'device_key_release', record_id: deviceId, device_id: deviceId };
  try {
    await ctx.store.releaseDeviceKey(ctx.appId, release, (device, recent) => {
      refuseRelease(device, user.id, recent);
      // The key the device holds: the last one released to it (a password-change rotation's key never was).
      const last = device ? (device.key_released ? device.key_wrapped : device.previous_wrapped) : null;
      held.previous = last ? unwrapDeviceKey(ctx.deviceKek, place, last) : null;
      return { key_wrapped: wrapDeviceKey(ctx.deviceKek, place, key), key_released: true, previous_wrapped: last };
    });
  } catch (err) {
    if (err instanceof HttpError) await recordEvent(ctx.store, ctx.appId, { ...audit, outcome: 'failure', reason: err.code });
    throw err;
  }
  await recordEvent(ctx.store, ctx.appId, audit);
  return {
    key: Buffer.from(key).toString('base64'),
    previous: held.previous ? Buffer.from(held.previous).toString('base64') : null,
    policy: { pin_min_length: ctx.devicePolicy.pinMinLength, idle_lock_minutes: ctx.devicePolicy.idleLockMinutes },
  };
}

function refuseRelease(device: DeviceRecord | null, userId: string, recent: { user: number; device: number }): void {
  if (device && device.user_id !== userId) throw new HttpError(409, 'DEVICE_TAKEN', 'This tablet is registered to another account.');
  if (device?.revoked_date) throw new HttpError(403, 'DEVICE_REVOKED', device.revoked_reason || DEVICE_REVOKED_MESSAGE);
  if (recent.device >= MAX_KEY_RELEASES || recent.user >= MAX_KEY_RELEASES_PER_USER) {
    throw new HttpError(429, 'TOO_MANY_KEY_RELEASES', 'Too many tablet set-ups in a short time. Try again in 15 minutes.', {
      retry_after_seconds: KEY_RELEASE_WINDOW_MS / 1000,
    });
  }
}

async function deviceStatus(ctx: ServerContext, c: Context, body: Body) {
  const { user } = await authorize(ctx, c, 'device_status', null);
  const deviceId = deviceIdOf(body);
  const device = await ctx.store.getDevice(ctx.appId, deviceId);
  // Another user's device is "unknown": its id tells a caller nothing about who holds it.
  if (!device || device.user_id !== user.id) return { status: 'unknown' };
  await ctx.store.touchDevice(ctx.appId, deviceId);
  if (!device.revoked_date) return { status: 'active' };
  // Issue #26: the tablet learns it must erase its copy (at once, or once its queue is sent):
  // recorded the first time it is told.
  if (!(await ctx.store.countAudit(ctx.appId, { record_id: deviceId, action: 'device_erase' }))) {
    await recordEvent(ctx.store, ctx.appId, {
      action: 'device_erase',
      record_id: deviceId,
      device_id: deviceId,
      reason: device.revoke_mode === 'erase' ? 'erases its copy now' : 'erases its copy once its queued changes are sent',
    });
  }
  return { status: 'revoked', mode: device.revoke_mode ?? 'flush', reason: device.revoked_reason || DEVICE_REVOKED_MESSAGE, revoked_date: device.revoked_date };
}

async function listDevices(ctx: ServerContext, c: Context, body: Body) {
  await authorize(ctx, c, 'manage_devices', null);
  const userId = Object.hasOwn(body, 'user_id') ? body.user_id : undefined;
  if (userId !== undefined && userId !== null && typeof userId !== 'string') throw new HttpError(400, 'BAD_REQUEST', 'user_id must be text');
  const devices = await ctx.store.listDevices(ctx.appId, (userId as string | null | undefined) ?? undefined);
  const ids = [...new Set(devices.map((d) => d.user_id))];
  const users = ids.length ? await ctx.store.list(ctx.appId, 'User', { q: { id: { $in: ids } }, fields: ['email', 'full_name'] }) : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return {
    devices: devices.map((d) => ({
      device_id: d.device_id,
      user_id: d.user_id,
      user_email: byId.get(d.user_id)?.email ?? null,
      user_name: byId.get(d.user_id)?.full_name ?? null,
      created_date: d.created_date,
      last_seen_date: d.last_seen_date,
      last_release_date: d.last_release_date,
      revoked_date: d.revoked_date,
      revoked_reason: d.revoked_reason,
      revoke_mode: d.revoke_mode,
    })),
  };
}

async function revokeDevice(ctx: ServerContext, c: Context, body: Body, hooks: FunctionHooks) {
  await authorize(ctx, c, 'manage_devices', null);
  const deviceId = deviceIdOf(body);
  const reason = reasonOf(body);
  if (!(await ctx.store.revokeDevices(ctx.appId, { deviceId }, 'flush', reason))) throw notFound('No such device');
  await recordEvent(ctx.store, ctx.appId, { action: 'device_revoke', record_id: deviceId, reason, changes: { mode: 'flush' } });
  await hooks.revoked?.({ deviceId });
  return { ok: true };
}

/**
 * Every device of the user revoked in mode erase, every session ended (revoked sessions and a
 * token_version bump, as a password change does); the account itself stays (an administrator may
 * also disable it or revoke its access).
 */
async function revokeUser(ctx: ServerContext, c: Context, body: Body, hooks: FunctionHooks) {
  const { user: admin } = await authorize(ctx, c, 'manage_devices', null);
  const userId = Object.hasOwn(body, 'user_id') ? body.user_id : undefined;
  if (typeof userId !== 'string' || userId === '') throw new HttpError(400, 'BAD_REQUEST', 'user_id is required');
  if (userId === admin.id) throw forbidden('You cannot revoke your own tablets here; sign out instead');
  const target = await ctx.store.get(ctx.appId, 'User', userId);
  if (!target) throw notFound('No such user');
  const reason = reasonOf(body);
  const devices = await ctx.store.revokeDevices(ctx.appId, { userId }, 'erase', reason);
  await ctx.store.revokeUserSessions(ctx.appId, userId, 'revoked');
  if (typeof target.email === 'string') {
    await ctx.store.updateAuth(ctx.appId, target.email, (auth) => ({ ...auth, token_version: (Number(auth.token_version) || 0) + 1 }));
  }
  await recordEvent(ctx.store, ctx.appId, { action: 'device_revoke', entity: 'User', record_id: userId, reason, changes: { mode: 'erase', devices } });
  await hooks.revoked?.({ userId });
  return { ok: true, devices };
}
