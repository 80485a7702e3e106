/**
 * The auth service (platform-contract.md 3.1), shared by the JSON routes and the login page. Here
 * are the password flows: login with lockout, password reset (with the mailed link's token) and
 * change password. The flows that send mail — register + e-mailed OTP, the reset mail and
 * invitations — are in auth-mail-flows.ts and composed into the service here.
 * Every failure is an HttpError; nothing here knows about HTTP requests.
 *
 * A check of a credential (password, OTP, reset token) yields a Grant; what a Grant becomes — a
 * session and its token, or a one-time code for the /login page's redirect — is sessions.ts's job
 * (issue #21), whose `startSession`, `issueCode` and `exchange` this service hands on to the routes.
 */
import { HttpError, forbidden, unprocessable } from '../errors';
import type { SendMail } from '../mail/messages';
import type { EntityRecord } from '../store/types';
import { findAccount, normalEmail, tokenRevoked, type AuthState } from './accounts';
import { createMailFlows } from './auth-mail-flows';
import { lockedUntil, recordFailure, recordSuccess, stateOf, withState } from './lockout';
import { hashPassword, passwordProblem, verifyPassword } from './password';
import { emailOfResetToken, hashSecret, sameHash } from './secrets';
import { createSessionService, type Grant, type SessionDeps, type SignedIn } from './sessions';
import type { TokenClaims } from './tokens';

// The mail flows live in auth-mail-flows.ts; their exports stay importable from here.
export { INVITE_LIFETIME_MS, MAIL_OFF_MESSAGES } from './auth-mail-flows';

export interface AuthDeps extends SessionDeps {
  /** PUBLIC_URL: links in mails start with it (never with the request's Host header). */
  publicUrl: string;
  /** Sends a mail; null when mail is off (a production start without SMTP_URL: server/mail/mailer.ts). */
  sendMail: SendMail | null;
  log: (line: string) => void;
  /** Waits before the 2nd, 3rd… try of a reset mail, which is sent in the background (default 5 s, 30 s). */
  mailRetryDelaysMs?: readonly number[];
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
  const mail = createMailFlows(deps, { grantOf, badPassword });

  /**
   * Password checks of one account from one source run one at a time on this instance, so parallel
   * guesses cannot all be checked before the first failures are counted (lockout.ts).
   */
  const checking = new Map<string, Promise<unknown>>();
  async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (checking.get(key) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => {});
    checking.set(key, tail);
    try {
      return await run;
    } finally {
      if (checking.get(key) === tail) checking.delete(key);
    }
  }

  function refuseLocked(auth: AuthState, source: string, now: Date): void {
    const until = lockedUntil(stateOf(auth.login_failures, source), now);
    if (!until) return;
    const left = Math.ceil((until.getTime() - now.getTime()) / 60_000);
    throw new HttpError(429, 'ACCOUNT_LOCKED', `Too many failed sign-in attempts. Try again in ${left} minute${left === 1 ? '' : 's'}.`, {
      retry_after_seconds: Math.ceil((until.getTime() - now.getTime()) / 1000),
    });
  }

  /**
   * Checks `password` from `source` (issue #25): refused with 429 while the source is locked out;
   * otherwise the password is checked, and only then, under the auth record's row lock, a failure
   * is counted or (right password) the source's failures are forgotten and `onRight` may change the
   * record in the same step. `guard` sees the record before the check and again under the lock
   * (it may throw). If the password changed while it was being checked (a parallel change or
   * reset), the check runs again against the new one. Resolves to the record after a right
   * password, null after a wrong one (or no record).
   */
  async function checkPassword(
    email: string,
    source: string,
    password: string,
    now: Date,
    opts: { onRight?: (auth: AuthState) => AuthState; guard?: (auth: AuthState) => void } = {},
  ): Promise<AuthState | null> {
    return oneAtATime(`${email}\n${source}`, async () => {
      for (;;) {
        const before = (await store.getAuth(app, email)) as AuthState | null;
        if (!before) return null;
        opts.guard?.(before);
        refuseLocked(before, source, now);
        const right = await verifyPassword(password, before.password_hash);
        let stale = false;
        const after = (await store.updateAuth(app, email, (current) => {
          const auth = current as AuthState;
          opts.guard?.(auth);
          if (auth.password_hash !== before.password_hash || auth.token_version !== before.token_version) {
            stale = true;
            return undefined;
          }
          const state = stateOf(auth.login_failures, source);
          if (!right) {
            refuseLocked(auth, source, now);
            return { ...auth, login_failures: withState(auth.login_failures, source, recordFailure(state, now), now) };
          }
          const cleared = state.failed_logins?.length || state.locked_until ? { ...auth, login_failures: withState(auth.login_failures, source, recordSuccess(), now) } : auth;
          return opts.onRight ? opts.onRight(cleared) : cleared === auth ? undefined : cleared;
        })) as AuthState | null;
        if (!after) return null;
        if (stale) continue;
        return right ? after : null;
      }
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
      const auth = await checkPassword(email, source, password, now);
      if (!auth) throw badCredentials();
      if (account.user.disabled === true) throw disabledError();
      if (account.user.is_verified !== true) {
        throw new HttpError(403, 'EMAIL_NOT_VERIFIED', 'Please verify your email first: enter the code we sent you, or request a new one.');
      }
      return grantOf(account.user, auth.token_version ?? 0);
    },

    startSession,
    /** Whether mail can be sent at all (false: a production start without SMTP_URL). */
    mailIsOn: deps.sendMail !== null,
    issueCode: sessions.issueCode,
    exchange: sessions.exchange,

    register: mail.register,
    resendOtp: mail.resendOtp,
    verifyOtp: mail.verifyOtp,
    requestReset: mail.requestReset,

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
     * lockout like a failed sign-in, counted only after the check (issue #25): parallel changes with
     * the right password are never a 429. The first of them changes the password, which signs out
     * the token the others came with: they answer 401 INVALID_TOKEN, as that token would a moment
     * later, and count as no failure.
     */
    async changePassword(
      caller: EntityRecord,
      claims: TokenClaims,
      body: { user_id?: unknown; current_password?: unknown; new_password?: unknown },
      source = 'unknown',
    ): Promise<{ message: string } & SignedIn> {
      if (body.user_id !== caller.id) throw forbidden('You can only change your own password');
      const wrong = new HttpError(400, 'INVALID_CREDENTIALS', 'The current password is not correct');
      const signedOut = () => new HttpError(401, 'INVALID_TOKEN', 'Your session has expired or is not valid. Please sign in again.', { reason: 'auth_required' });
      const email = normalEmail(caller.email);
      if (typeof body.current_password !== 'string' || body.current_password === '') throw wrong;
      const now = deps.now();
      // The caller's token must still be current, before the check and in the locked step: once a
      // parallel change has signed it out, its old password is no guess and counts as no failure.
      const guard = (a: AuthState) => {
        if (tokenRevoked(a, claims)) throw signedOut();
      };
      if (passwordProblem(body.new_password)) {
        // Only someone who knows the current password learns what is wrong with the new one.
        if (!(await checkPassword(email, source, body.current_password, now, { guard }))) throw wrong;
        badPassword(body.new_password);
      }
      // Hashed first, so the change is made in the same locked step that accepts the current
      // password: nothing can come between them.
      const passwordHash = await hashPassword(body.new_password as string);
      const changed = await checkPassword(email, source, body.current_password, now, {
        guard,
        onRight: (a) => ({ ...a, password_hash: passwordHash, tokens_valid_after: now.toISOString(), token_version: (a.token_version ?? 0) + 1 }),
      });
      if (!changed) throw wrong;
      await rotateDeviceKeys(caller.id);
      return { message: 'Password changed', ...(await startSession(grantOf(caller, changed.token_version ?? 0), claims.did)) };
    },

    invite: mail.invite,

    setPasswordToken: mail.setPasswordToken,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
