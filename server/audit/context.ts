/**
 * Issue #26: the audit context of each HTTP request (server/store/audit-context.ts). A middleware
 * opens it with the client's address and the tablet's optional headers; `noteCaller` adds who is
 * calling once the token is read (routes/context.ts authorize), so every write the request makes —
 * through any route — is recorded with its actor, device and address. `recordEvent` appends the
 * events that are not record writes (sign-ins, device keys, exports…) with the same fields.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { DEVICE_ID } from '../auth/sessions';
import { currentAudit, runWithAudit, type AuditContext } from '../store/audit-context';
import type { AuditInput, Store } from '../store/types';
import { EDIT_TIMES_HEADER, RESOLVES_CONFLICT_HEADER, decodeEditTimes } from '../../shared/audit';

interface HttpAuditContext extends AuditContext {
  /** The request's body as text (Hono keeps it once read), for a sign-in's device_id. */
  bodyText?: () => Promise<string>;
}

/** Opens the request's audit context; `addressOf` is the lockout's notion of the client address. */
export function auditContext(addressOf: (c: Context) => string): MiddlewareHandler {
  return (c, next) => {
    const context: HttpAuditContext = {
      actor_id: null,
      actor_email: null,
      device_id: null,
      address: addressOf(c),
      edit_times: decodeEditTimes(c.req.header(EDIT_TIMES_HEADER)),
      resolves_conflict: c.req.header(RESOLVES_CONFLICT_HEADER)?.trim() === '1',
      bodyText: () => c.req.text(),
    };
    return runWithAudit(context, () => next());
  };
}

/** The signed-in caller of this request (and the device its token names). */
export function noteCaller(user: { id: string; email?: unknown }, deviceId: string | null | undefined): void {
  const c = currentAudit();
  if (!c) return;
  c.actor_id = user.id;
  c.actor_email = typeof user.email === 'string' ? user.email : null;
  c.device_id = deviceId ?? null;
}

/** The JSON body's device_id when it is a well-formed one (a sign-in names its tablet there). */
export async function bodyDeviceId(): Promise<string | null> {
  const read = (currentAudit() as HttpAuditContext | undefined)?.bodyText;
  if (!read) return null;
  try {
    const body = JSON.parse(await read()) as { device_id?: unknown };
    return typeof body?.device_id === 'string' && DEVICE_ID.test(body.device_id) ? body.device_id : null;
  } catch {
    return null;
  }
}

/** Appends one event; actor, device and address default to the request's. */
export async function recordEvent(store: Store, app: string, input: AuditInput): Promise<void> {
  const c = currentAudit();
  await store.appendAudit(app, [
    {
      ...input,
      actor_id: input.actor_id !== undefined ? input.actor_id : (c?.actor_id ?? null),
      actor_email: input.actor_email !== undefined ? input.actor_email : (c?.actor_email ?? null),
      device_id: input.device_id !== undefined ? input.device_id : (c?.device_id ?? null),
      address: input.address !== undefined ? input.address : (c?.address ?? null),
    },
  ]);
}
