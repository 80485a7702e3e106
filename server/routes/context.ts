/**
 * What every route module gets from createApp: the store, the app id, the clock, the auth service
 * and helpers to identify the caller and apply the permission table.
 */
import type { Context } from 'hono';
import { HttpError } from '../errors';
import type { AuthService } from '../auth/auth-service';
import type { DevicePolicy } from '../device-policy';
import { clientAddress, type TrustProxy } from '../http/trust-proxy';
import { decide, type Action, type DecideOptions, type Decision } from '../auth/permissions';
import { resolveCaller, type Caller } from '../auth/principal';
import type { TokenClaims } from '../auth/tokens';
import type { EntityRecord, Store } from '../store/types';
import { noteCaller } from '../audit/context';

export interface ServerContext {
  store: Store;
  appId: string;
  jwtKey: Uint8Array;
  now: () => Date;
  log: (message: string) => void;
  /** PUBLIC_URL: the origin (and path prefix) users open; links in mails start with it. */
  publicUrl: string;
  /** TRUST_PROXY (http/trust-proxy.ts): which peers may name the client in X-Forwarded-For; null: none. */
  trustProxy: TrustProxy | null;
  auth: AuthService;
  /** PIN_MIN_LENGTH and IDLE_LOCK_MINUTES, handed to devices with their key (functions/deviceKey). */
  devicePolicy: DevicePolicy;
  /** Wraps device keys at rest (auth/device-keys.ts), derived from the server's secret. */
  deviceKek: Buffer;
}

const CALLER = 'passage.caller';

export async function callerOf(ctx: ServerContext, c: Context): Promise<Caller> {
  const cached = (c as unknown as { get(k: string): Caller | undefined }).get(CALLER);
  if (cached) return cached;
  const caller = await resolveCaller(ctx.store, ctx.jwtKey, ctx.appId, c.req.header('authorization'), ctx.now());
  (c as unknown as { set(k: string, v: Caller): void }).set(CALLER, caller);
  return caller;
}

/** Applies the permission table; throws the denial as an HttpError. Returns the allowing decision. */
export async function authorize(
  ctx: ServerContext,
  c: Context,
  action: Action,
  entity: string | null,
  opts?: DecideOptions,
): Promise<{ decision: Extract<Decision, { allow: true }>; user: EntityRecord; claims: TokenClaims }> {
  const caller = await callerOf(ctx, c);
  if (caller.kind === 'invalid') {
    throw new HttpError(401, 'INVALID_TOKEN', 'Your session has expired or is not valid. Please sign in again.', { reason: 'auth_required' });
  }
  // SESSION_REVOKED / DEVICE_REVOKED: the tablet ends its session, or erases its copy (issue #21).
  if (caller.kind === 'revoked') throw new HttpError(401, caller.code, caller.message, { reason: 'auth_required' });
  // Issue #26: what this request writes is recorded as the caller's, from the token's device.
  if (caller.kind === 'user') noteCaller(caller.user, caller.claims.did);
  const decision = decide(caller, action, entity, opts);
  if (!decision.allow) {
    throw new HttpError(decision.status, decision.code, decision.message, decision.reason ? { reason: decision.reason } : undefined);
  }
  // decide() only allows signed-in users.
  const { user, claims } = caller as Extract<Caller, { kind: 'user' }>;
  return { decision, user: user as EntityRecord, claims };
}

export function checkApp(ctx: ServerContext, appId: string | undefined): void {
  if (appId !== ctx.appId) throw new HttpError(404, 'APP_NOT_FOUND', 'No such app');
}

/**
 * Origin of the request as the browser sees it: for the same-origin check of redirects after
 * sign-in (never for links in mails: those use PUBLIC_URL). Behind a TLS-terminating proxy the socket is plain http, so X-Forwarded-Proto (http or
 * https only) decides the scheme; the host is the Host header either way.
 */
export function originOf(c: Context): string {
  const url = new URL(c.req.url);
  const proto = c.req.header('x-forwarded-proto')?.split(',')[0].trim().toLowerCase();
  return proto === 'https' || proto === 'http' ? `${proto}://${url.host}` : url.origin;
}

/**
 * The client's address, which the sign-in lockout counts by (lockout.ts): the socket's peer, or,
 * behind trusted reverse proxies (TRUST_PROXY), the address they vouch for in X-Forwarded-For.
 */
export function sourceOf(ctx: ServerContext, c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return clientAddress(incoming?.socket?.remoteAddress, c.req.header('x-forwarded-for'), ctx.trustProxy).slice(0, 64);
}
