/**
 * The password flows (platform-contract.md 3.1), shared by the JSON routes and the login page:
 * login with lockout, register + e-mailed OTP, password reset, change password and invitations.
 * Every failure is an HttpError; nothing here knows about HTTP requests.
 *
 * A check of a credential (password, OTP, reset token) yields a Grant; what a Grant becomes — a
 * session and its token, or a one-time code for the /login page's redirect — is sessions.ts's job
 * (issue #21), whose `startSession`, `issueCode` and `exchange` this service hands on to the routes.
 */
import { HttpError, forbidden, unprocessable } from '../errors';
import type { EntityRecord } from '../store/types';
import { createAccount, findAccount, normalEmail, type AuthState } from './accounts';
import { lockedUntil, recordFailure, recordSuccess, stateOf, withState } from './lockout';
import { hashPassword, passwordProblem, verifyPassword } from './password';
import {
  emailOfResetToken,
  hashSecret,
  newOtp,
  newResetToken,
  OTP_LIFETIME_MS,
  OTP_MAX_TRIES,
  RESET_LIFETIME_MS,
  sameHash,
} from './secrets';
import { createSessionService, type Grant, type SessionDeps, type SignedIn } from './sessions';
import type { TokenClaims } from './tokens';

export interface AuthDeps extends SessionDeps {
  /** PUBLIC_URL: links in mails start with it (never with the request's Host header). */
  publicUrl: string;
  notify: (to: string, subject: string, text: string) => Promise<void>;
}

const badCredentials = () => new HttpError(401, 'INVALID_CREDENTIALS', 'Invalid email or password');
const badPassword = (password: unknown) => {
  const problem = passwordProblem(password);
  if (problem) throw unprocessable(problem, 'password');
};

export function createAuthService(deps: AuthDeps) {
  const { store, appId: app } = deps;
  const sessions = createSessionService(deps);
  const { startSession, rotateDeviceKeys } = sessions;
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
  const grantOf = (user: EntityRecord, version: number): Grant => ({ user, version, authTime: seconds(deps.now()) });

  const disabledError = () => new HttpError(403, 'ACCOUNT_DISABLED', 'This account has been disabled. Contact your administrator.');

  /** At most one sign-in mail per account per 30 s, so nobody can flood a mailbox through us. */
  const mailedRecently = (auth: AuthState) =>
    typeof auth.last_mail_at === 'string' && deps.now().getTime() - new Date(auth.last_mail_at).getTime() < MAIL_INTERVAL_MS;

  /** A new code for an unverified account, unless one went out in the last 30 s. */
  async function sendOtp(email: string): Promise<void> {
    const code = newOtp();
    let send = false;
    await store.updateAuth(app, email, (current) => {
      const auth = current as AuthState;
      if (mailedRecently(auth)) return undefined;
      send = true;
      return {
        ...auth,
        otp_hash: hashSecret(deps.secret, `otp:${email}`, code),
        otp_expires: new Date(deps.now().getTime() + OTP_LIFETIME_MS).toISOString(),
        otp_tries: 0,
        last_mail_at: deps.now().toISOString(),
      };
    });
    if (send) await deps.notify(email, 'Your Passage verification code', `Your verification code is ${code}. It expires in 10 minutes.`);
  }

  /**
   * Counts a password attempt from `source` before the password is checked (lockout.ts), or refuses
   * it with 429 while that source is locked out of the account. Returns the auth record as it now
   * stands (its password hash is the current one, even if it changed a moment ago).
   */
  async function reserveAttempt(email: string, source: string, now: Date): Promise<AuthState | null> {
    return (await store.updateAuth(app, email, (current) => {
      const auth = current as AuthState;
      const state = stateOf(auth.login_failures, source);
      const until = lockedUntil(state, now);
      if (until) {
        const minutes = Math.ceil((until.getTime() - now.getTime()) / 60_000);
        throw new HttpError(429, 'ACCOUNT_LOCKED', `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
          retry_after_seconds: Math.ceil((until.getTime() - now.getTime()) / 1000),
        });
      }
      return { ...auth, login_failures: withState(auth.login_failures, source, recordFailure(state, now), now) };
    })) as AuthState | null;
  }

  /** The right password from `source`: its failures (including the reserved one) are forgotten. */
  async function clearAttempts(email: string, source: string, now: Date): Promise<void> {
    await store.updateAuth(app, email, (current) => {
      const auth = current as AuthState;
      const state = stateOf(auth.login_failures, source);
      if (!state.failed_logins?.length && !state.locked_until) return undefined;
      return { ...auth, login_failures: withState(auth.login_failures, source, recordSuccess(), now) };
    });
  }

  return {
    /** `source` is the client's address: lockout counts per account and source (lockout.ts). */
    async login(emailIn: unknown, password: unknown, source = 'unknown'): Promise<Grant> {
      const email = normalEmail(emailIn);
      if (typeof password !== 'string' || password === '') throw badCredentials();
      const now = deps.now();
      const account = await findAccount(store, app, email);
      if (!account) {
        await verifyPassword(password, null); // same time as a wrong password: no account probing
        throw badCredentials();
      }
      const auth = await reserveAttempt(email, source, now);
      if (!auth || !(await verifyPassword(password, auth.password_hash))) throw badCredentials();
      await clearAttempts(email, source, now);
      if (account.user.disabled === true) throw disabledError();
      if (account.user.is_verified !== true) {
        throw new HttpError(403, 'EMAIL_NOT_VERIFIED', 'Please verify your email first: enter the code we sent you, or request a new one.');
      }
      return grantOf(account.user, auth.token_version ?? 0);
    },

    startSession,
    issueCode: sessions.issueCode,
    exchange: sessions.exchange,

    /**
     * A new account, or — once the earlier registration's code has expired — a new password for an
     * unverified one. While a code is outstanding the registration is not replaced (409), so nobody
     * can swap in their own password for the code the mailbox owner is about to enter.
     */
    async register(body: { email?: unknown; password?: unknown; full_name?: unknown }): Promise<{ message: string; email: string }> {
      const email = normalEmail(body.email);
      badPassword(body.password);
      const fullName = typeof body.full_name === 'string' ? body.full_name.trim().slice(0, 200) || null : null;
      const existing = await findAccount(store, app, email);
      if (existing?.user.is_verified === true) {
        throw new HttpError(409, 'EMAIL_TAKEN', 'An account with this email already exists. Sign in or reset your password.');
      }
      const now = deps.now();
      const pendingUntil = new Date(now.getTime() + OTP_LIFETIME_MS).toISOString();
      if (existing) {
        // Checked before scrypt (a refused attempt costs no hash) and again under the row lock.
        refusePending(existing.auth as AuthState, now);
        const passwordHash = await hashPassword(body.password as string);
        await store.updateAuth(app, email, (current) => {
          const auth = current as AuthState;
          refusePending(auth, now);
          return { ...auth, password_hash: passwordHash, pending_until: pendingUntil };
        });
        if (fullName) await store.update(app, 'User', existing.user.id, { full_name: fullName });
      } else {
        await createAccount(store, app, {
          email,
          password: body.password as string,
          full_name: fullName,
          role: 'user',
          verified: false,
          auth: { pending_until: pendingUntil },
        });
      }
      await sendOtp(email);
      return { message: 'We sent a 6-digit code to your email. It expires in 10 minutes.', email };
    },

    async resendOtp(emailIn: unknown): Promise<{ message: string }> {
      const email = normalEmail(emailIn);
      const account = await findAccount(store, app, email);
      if (account && account.user.is_verified !== true) await sendOtp(email);
      return { message: 'If that account is waiting for verification, a new code is on its way. It expires in 10 minutes.' };
    },

    async verifyOtp(emailIn: unknown, code: unknown): Promise<Grant> {
      const email = normalEmail(emailIn);
      const wrong = new HttpError(400, 'INVALID_OTP', 'That code is not correct');
      const account = await findAccount(store, app, email);
      if (!account || (typeof code !== 'string' && typeof code !== 'number')) throw wrong;
      const sent = hashSecret(deps.secret, `otp:${email}`, String(code).trim());
      // Checked and counted in one locked step: parallel guesses cannot share one try.
      let outcome: 'ok' | 'wrong' | 'too-many' | 'expired' = 'expired';
      const auth = (await store.updateAuth(app, email, (current) => {
        const a = current as AuthState;
        if (!a.otp_hash || !a.otp_expires || new Date(a.otp_expires) <= deps.now()) return undefined;
        if (!sameHash(a.otp_hash, sent)) {
          const tries = (a.otp_tries ?? 0) + 1;
          outcome = tries >= OTP_MAX_TRIES ? 'too-many' : 'wrong';
          return outcome === 'too-many' ? { ...a, otp_hash: null, otp_expires: null, otp_tries: tries } : { ...a, otp_tries: tries };
        }
        outcome = 'ok';
        return { ...a, otp_hash: null, otp_expires: null, otp_tries: 0, pending_until: null };
      })) as AuthState | null;
      if (outcome === 'expired' || !auth) throw new HttpError(400, 'OTP_EXPIRED', 'That code has expired. Request a new one.');
      if (outcome === 'too-many') throw new HttpError(400, 'OTP_TOO_MANY_TRIES', 'Too many wrong codes. Request a new one.');
      if (outcome === 'wrong') throw wrong;
      const user = (await store.update(app, 'User', account.user.id, { is_verified: true })) ?? account.user;
      return grantOf(user, auth.token_version ?? 0);
    },

    async requestReset(emailIn: unknown): Promise<{ message: string }> {
      const message = 'If an account exists for that email, we sent a reset code. It expires in 30 minutes.';
      // A malformed address is a 400 (its syntax tells nothing about which accounts exist).
      const email = normalEmail(emailIn);
      const account = await findAccount(store, app, email);
      if (account && account.user.disabled !== true) {
        const token = newResetToken(email);
        let send = false;
        await store.updateAuth(app, email, (current) => {
          const auth = current as AuthState;
          if (mailedRecently(auth)) return undefined;
          send = true;
          return {
            ...auth,
            reset_hash: hashSecret(deps.secret, 'reset', token),
            reset_expires: new Date(deps.now().getTime() + RESET_LIFETIME_MS).toISOString(),
            last_mail_at: deps.now().toISOString(),
          };
        });
        if (send) await deps.notify(email, 'Reset your Passage password', resetText(token, deps.publicUrl, 30));
      }
      return { message };
    },

    async resetPassword(token: unknown, newPassword: unknown): Promise<Grant> {
      const invalid = new HttpError(400, 'INVALID_RESET_TOKEN', 'This reset link is invalid or has expired. Request a new one.');
      const email = emailOfResetToken(token);
      const account = email ? await findAccount(store, app, email) : null;
      const valid = (auth: AuthState) =>
        !!auth.reset_hash &&
        !!auth.reset_expires &&
        new Date(auth.reset_expires) > deps.now() &&
        sameHash(auth.reset_hash, hashSecret(deps.secret, 'reset', token as string));
      if (!email || !account || !valid(account.auth)) throw invalid;
      if (account.user.disabled === true) throw disabledError();
      badPassword(newPassword);
      const passwordHash = await hashPassword(newPassword as string);
      // Checked again under the row lock: a reset link works once, even for parallel requests.
      const auth = (await store.updateAuth(app, email, (current) => {
        const a = current as AuthState;
        if (!valid(a)) throw invalid;
        return {
          ...a,
          password_hash: passwordHash,
          reset_hash: null,
          reset_expires: null,
          tokens_valid_after: deps.now().toISOString(),
          token_version: (a.token_version ?? 0) + 1,
          // The mailbox owner proved who they are: every lockout of the account ends.
          login_failures: {},
          pending_until: null,
        };
      })) as AuthState;
      // The reset link reached the mailbox, which proves the address just as an OTP would.
      const user = account.user.is_verified === true ? account.user : ((await store.update(app, 'User', account.user.id, { is_verified: true })) ?? account.user);
      await rotateDeviceKeys(user.id);
      return grantOf(user, auth.token_version ?? 0);
    },

    /**
     * Signs out every other session (and rotates the user's device keys); the answer carries a
     * fresh token for a new session of this device. A wrong current password counts toward the
     * lockout like a failed sign-in.
     */
    async changePassword(
      caller: EntityRecord,
      claims: TokenClaims,
      body: { user_id?: unknown; current_password?: unknown; new_password?: unknown },
      source = 'unknown',
    ): Promise<{ message: string } & SignedIn> {
      if (body.user_id !== caller.id) throw forbidden('You can only change your own password');
      const wrong = new HttpError(400, 'INVALID_CREDENTIALS', 'The current password is not correct');
      const email = normalEmail(caller.email);
      if (typeof body.current_password !== 'string' || body.current_password === '') throw wrong;
      const now = deps.now();
      const auth = await reserveAttempt(email, source, now);
      if (!auth || !(await verifyPassword(body.current_password, auth.password_hash))) throw wrong;
      await clearAttempts(email, source, now);
      badPassword(body.new_password);
      const passwordHash = await hashPassword(body.new_password as string);
      const changed = (await store.updateAuth(app, email, (current) => {
        const a = current as AuthState;
        return { ...a, password_hash: passwordHash, tokens_valid_after: now.toISOString(), token_version: (a.token_version ?? 0) + 1 };
      })) as AuthState;
      await rotateDeviceKeys(caller.id);
      return { message: 'Password changed', ...(await startSession(grantOf(caller, changed.token_version ?? 0), claims.did)) };
    },

    async invite(admin: EntityRecord, emailIn: unknown, role: unknown): Promise<{ message: string; user: EntityRecord }> {
      const email = normalEmail(emailIn);
      if (role !== 'user' && role !== 'admin') {
        throw unprocessable('role must be "user" or "admin"', 'role');
      }
      if (await store.getAuth(app, email)) throw new HttpError(409, 'EMAIL_TAKEN', 'An account with this email already exists');
      const token = newResetToken(email);
      // Invited accounts are verified (the invite link proves the mailbox) but not approved: the
      // coach still completes a profile and an admin approves it, like every other coach.
      const { user } = await createAccount(store, app, {
        email,
        role,
        verified: true,
        fields: { invited_by: admin.email ?? null },
        auth: {
          reset_hash: hashSecret(deps.secret, 'reset', token),
          reset_expires: new Date(deps.now().getTime() + INVITE_LIFETIME_MS).toISOString(),
        },
      });
      await deps.notify(email, 'You are invited to Passage', resetText(token, deps.publicUrl, INVITE_LIFETIME_MS / 60_000, 'set your password'));
      return { message: `Invitation sent to ${email}`, user };
    },
  };
}

const MAIL_INTERVAL_MS = 30_000;
// 7 days for an invitation: people do not always read mail the day it is sent.
const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

function resetText(token: string, publicUrl: string, minutes: number, what = 'reset your password'): string {
  const link = `${publicUrl}/login?reset_token=${encodeURIComponent(token)}`;
  const span = minutes >= 1440 ? `${Math.round(minutes / 1440)} days` : `${minutes} minutes`;
  return `To ${what}, open ${link}\nor enter this code on the sign-in page: ${token}\nIt expires in ${span}.`;
}

export type AuthService = ReturnType<typeof createAuthService>;

/**
 * A registration is held while its code can still be entered: until the later of its first
 * 10 minutes and the expiry of the newest code sent (a resend extends it), so nobody swaps in their
 * own password for a code the mailbox owner is about to enter.
 */
function refusePending(auth: AuthState, now: Date): void {
  const holds = [auth.pending_until, auth.otp_expires].filter((t): t is string => typeof t === 'string');
  if (holds.some((t) => new Date(t) > now)) {
    throw new HttpError(409, 'REGISTRATION_PENDING', 'A registration for this email is waiting for its code. Enter the code we sent, or request a new one.');
  }
}
