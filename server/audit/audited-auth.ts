/**
 * Issue #26: the password flows with their audit events, around the auth service (so both the JSON
 * API and the /login page record them): sign-in and its failures, the lockout a failure starts,
 * sign-up, password change and reset. Each event is appended right after the flow's outcome, in a
 * transaction of its own (the flows' own writes are locked read-modify-writes of the auth record;
 * record writes they make, e.g. a sign-up's User, are recorded by the database as they happen).
 */
import { HttpError } from '../errors';
import type { AuthService } from '../auth/auth-service';
import { lockedUntil, stateOf, type LockoutBySource } from '../auth/lockout';
import { emailOfResetToken } from '../auth/secrets';
import type { AuditInput, EntityRecord, Store } from '../store/types';
import { bodyDeviceId, recordEvent } from './context';

const codeOf = (err: unknown) => (err instanceof HttpError ? err.code : 'INTERNAL');
/** The e-mail as typed (lower case, bounded): a failed sign-in names whom it tried. */
const typedEmail = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase().slice(0, 254) || null : null);

export function auditedAuth(store: Store, app: string, now: () => Date, auth: AuthService): AuthService {
  const record = (input: AuditInput) => recordEvent(store, app, input);
  const userOf = (user: EntityRecord) => ({ actor_id: user.id, actor_email: typeof user.email === 'string' ? user.email : null });
  /** The account's user id for an e-mail, when there is one (failures name it too). */
  const idOf = async (email: string | null) => (email ? (((await store.getAuth(app, email))?.user_id as string | undefined) ?? null) : null);

  /** A failed password check: the failure, and a lockout when this failure started one. */
  async function passwordFailed(action: 'sign_in_failed' | 'password_change', err: unknown, email: string | null, source: string, actor?: EntityRecord) {
    const code = codeOf(err);
    if (!(err instanceof HttpError) || err.status >= 500) return;
    const auth = email ? await store.getAuth(app, email) : null;
    const who = actor ? userOf(actor) : { actor_id: (auth?.user_id as string | undefined) ?? null, actor_email: email };
    await record({ ...who, action, outcome: 'failure', reason: code });
    const wrong = code === 'INVALID_CREDENTIALS';
    const until = wrong && auth ? lockedUntil(stateOf(auth.login_failures as LockoutBySource | undefined, source), now()) : null;
    if (until) await record({ ...who, action: 'lockout', outcome: 'failure', reason: `Locked until ${until.toISOString()}` });
  }

  return {
    ...auth,

    async login(email, password, source = 'unknown') {
      try {
        const grant = await auth.login(email, password, source);
        await record({ ...userOf(grant.user), device_id: await bodyDeviceId(), action: 'sign_in' });
        return grant;
      } catch (err) {
        await passwordFailed('sign_in_failed', err, typedEmail(email), source);
        throw err;
      }
    },

    async register(body) {
      const email = typedEmail(body.email);
      try {
        const answer = await auth.register(body);
        await record({ actor_id: await idOf(answer.email), actor_email: answer.email, action: 'sign_up' });
        return answer;
      } catch (err) {
        if (err instanceof HttpError && err.status < 500) await record({ actor_id: null, actor_email: email, action: 'sign_up', outcome: 'failure', reason: codeOf(err) });
        throw err;
      }
    },

    async verifyOtp(email, code) {
      try {
        const grant = await auth.verifyOtp(email, code);
        await record({ ...userOf(grant.user), device_id: await bodyDeviceId(), action: 'sign_in', reason: 'verification code' });
        return grant;
      } catch (err) {
        if (err instanceof HttpError && err.status < 500) {
          const typed = typedEmail(email);
          await record({ actor_id: await idOf(typed), actor_email: typed, action: 'sign_in_failed', outcome: 'failure', reason: codeOf(err) });
        }
        throw err;
      }
    },

    async resetPassword(token, newPassword) {
      try {
        const grant = await auth.resetPassword(token, newPassword);
        await record({ ...userOf(grant.user), action: 'password_reset' });
        return grant;
      } catch (err) {
        if (err instanceof HttpError && err.status < 500) {
          const email = emailOfResetToken(token)?.toLowerCase().slice(0, 254) ?? null;
          await record({ actor_id: await idOf(email), actor_email: email, action: 'password_reset', outcome: 'failure', reason: codeOf(err) });
        }
        throw err;
      }
    },

    async changePassword(caller, claims, body, source = 'unknown') {
      try {
        const answer = await auth.changePassword(caller, claims, body, source);
        await record({ ...userOf(caller), action: 'password_change' });
        return answer;
      } catch (err) {
        await passwordFailed('password_change', err, typedEmail(caller.email), source, caller);
        throw err;
      }
    },
  };
}
