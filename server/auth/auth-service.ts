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
import { mailErrorSummary } from '../mail/mailer';
import { inviteMail, maskAddress, otpMail, resetMail, type Mail, type SendMail } from '../mail/messages';
import { StoreError } from '../store/errors';
import type { EntityRecord } from '../store/types';
import { createAccount, findAccount, normalEmail, tokenRevoked, type AuthState } from './accounts';
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
  /** Sends a mail; null when mail is off (a production start without SMTP_URL: server/mail/mailer.ts). */
  sendMail: SendMail | null;
  log: (line: string) => void;
  /** Waits before the 2nd, 3rd… try of a reset mail, which is sent in the background (default 5 s, 30 s). */
  mailRetryDelaysMs?: readonly number[];
}

/** What mail-dependent requests answer when mail is off (503 MAIL_OFF). */
export const MAIL_OFF_MESSAGES = {
  signUp: 'Creating an account needs e-mail, which is not set up on this server. Ask an administrator.',
  reset: 'Password reset by e-mail is not set up on this server. Ask an administrator.',
  invite: 'Invitations are sent by e-mail, which is not set up on this server. Ask whoever runs it to set SMTP_URL and MAIL_FROM.',
} as const;
const mailOff = (message: string) => new HttpError(503, 'MAIL_OFF', message);
const mailFailed = (message = 'We could not send the e-mail just now. Please try again in a few minutes.') => new HttpError(503, 'MAIL_FAILED', message);

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
  const minutes = (ms: number) => Math.round(ms / 60_000);

  /** The mail sender, or 503 MAIL_OFF with `message` when mail is off (asked before anything is written). */
  const mailOn = (message: string): SendMail => {
    if (!deps.sendMail) throw mailOff(message);
    return deps.sendMail;
  };

  /**
   * Sends `mail` without the request waiting for it, trying again after each delay. Used for reset
   * mails: the answer must not tell (by an error, or by taking longer) whether the account exists.
   * After the last try, `giveUp` runs (the throttle is lifted so the person can ask again).
   */
  function sendInBackground(send: SendMail, mail: Mail, what: string, giveUp: () => Promise<unknown>): void {
    const delays = deps.mailRetryDelaysMs ?? [5_000, 30_000];
    void (async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          await send(mail);
          return;
        } catch (err) {
          const last = attempt >= delays.length;
          deps.log(`Mail: ${what} to ${maskAddress(mail.to)} was not sent (${mailErrorSummary(err)}); ${last ? 'giving up' : `trying again in ${Math.round(delays[attempt] / 1000)} s`}.`);
          if (last) {
            await giveUp().catch(() => {});
            return;
          }
          await new Promise((r) => setTimeout(r, delays[attempt]).unref?.());
        }
      }
    })();
  }

  /** At most one sign-in mail per account per 30 s, so nobody can flood a mailbox through us. */
  const mailedRecently = (auth: AuthState) =>
    typeof auth.last_mail_at === 'string' && deps.now().getTime() - new Date(auth.last_mail_at).getTime() < MAIL_INTERVAL_MS;

  /**
   * A new code for an unverified account, unless one went out in the last 30 s. When the mail
   * server refuses it, the code is withdrawn (and, for a new registration, the hold on the address
   * lifted) so the person can simply try again, and the request answers 503 MAIL_FAILED.
   */
  async function sendOtp(email: string, send: SendMail, newRegistration = false): Promise<void> {
    const code = newOtp();
    const hash = hashSecret(deps.secret, `otp:${email}`, code);
    let sending = false;
    await store.updateAuth(app, email, (current) => {
      const auth = current as AuthState;
      if (mailedRecently(auth)) return undefined;
      sending = true;
      return {
        ...auth,
        otp_hash: hash,
        otp_expires: new Date(deps.now().getTime() + OTP_LIFETIME_MS).toISOString(),
        otp_tries: 0,
        last_mail_at: deps.now().toISOString(),
      };
    });
    if (!sending) return;
    try {
      await send(otpMail(email, code, minutes(OTP_LIFETIME_MS), deps.publicUrl));
    } catch (err) {
      deps.log(`Mail: a verification code to ${maskAddress(email)} was not sent (${mailErrorSummary(err)}).`);
      await store.updateAuth(app, email, (current) => {
        const a = current as AuthState;
        if (a.otp_hash !== hash) return undefined;
        return { ...a, otp_hash: null, otp_expires: null, last_mail_at: null, ...(newRegistration ? { pending_until: null } : {}) };
      });
      throw mailFailed();
    }
  }

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

  /**
   * A one-time set-password token for the account (the invitation's, and `npm run admin:create`'s
   * link): valid 7 days, it replaces any earlier reset or invitation token.
   */
  async function setPasswordToken(email: string): Promise<string> {
    const token = newResetToken(email);
    await store.updateAuth(app, email, (current) => ({
      ...(current as AuthState),
      reset_hash: hashSecret(deps.secret, 'reset', token),
      reset_expires: new Date(deps.now().getTime() + INVITE_LIFETIME_MS).toISOString(),
    }));
    return token;
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

    /**
     * A new account, or — once the earlier registration's code has expired — a new password for an
     * unverified one. While a code is outstanding the registration is not replaced (409), so nobody
     * can swap in their own password for the code the mailbox owner is about to enter.
     */
    async register(body: { email?: unknown; password?: unknown; full_name?: unknown }): Promise<{ message: string; email: string }> {
      const send = mailOn(MAIL_OFF_MESSAGES.signUp);
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
        }).catch(async (err: unknown) => {
          // Issue #25.2: a parallel sign-up of this e-mail won the unique index on User e-mails; this
          // one is answered as if it came just after: that registration now waits for its code.
          if (!(err instanceof StoreError && err.code === 'EMAIL_TAKEN')) throw err;
          const winner = await findAccount(store, app, email);
          if (winner?.user.is_verified === true) {
            throw new HttpError(409, 'EMAIL_TAKEN', 'An account with this email already exists. Sign in or reset your password.');
          }
          refusePending({ pending_until: pendingUntil } as AuthState, now); // throws REGISTRATION_PENDING
          throw err;
        });
      }
      await sendOtp(email, send, true);
      return { message: 'We sent a 6-digit code to your email. It expires in 10 minutes.', email };
    },

    async resendOtp(emailIn: unknown): Promise<{ message: string }> {
      const send = mailOn(MAIL_OFF_MESSAGES.signUp);
      const email = normalEmail(emailIn);
      const account = await findAccount(store, app, email);
      if (account && account.user.is_verified !== true) await sendOtp(email, send);
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
      // Off for every address alike, so the answer still tells nothing about which accounts exist.
      const send = mailOn(MAIL_OFF_MESSAGES.reset);
      // A malformed address is a 400 (its syntax tells nothing about which accounts exist).
      const email = normalEmail(emailIn);
      const account = await findAccount(store, app, email);
      if (account && account.user.disabled !== true) {
        const token = newResetToken(email);
        const sentAt = deps.now().toISOString();
        let sending = false;
        await store.updateAuth(app, email, (current) => {
          const auth = current as AuthState;
          if (mailedRecently(auth)) return undefined;
          sending = true;
          return {
            ...auth,
            reset_hash: hashSecret(deps.secret, 'reset', token),
            reset_expires: new Date(deps.now().getTime() + RESET_LIFETIME_MS).toISOString(),
            last_mail_at: sentAt,
          };
        });
        // In the background: a refusing or slow mail server must not make this answer differ
        // (in status or in time) from the one for an address without an account.
        if (sending) {
          sendInBackground(send, resetMail(email, token, minutes(RESET_LIFETIME_MS), deps.publicUrl), 'a reset mail', () =>
            store.updateAuth(app, email, (current) => {
              const a = current as AuthState;
              return a.last_mail_at === sentAt ? { ...a, last_mail_at: null } : undefined;
            }),
          );
        }
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

    /**
     * Creates the account and mails its set-password link. An account that has never had a password
     * (invited, link not used yet) may be invited again: a new link replaces the old one, so an
     * expired invitation, or one the mail server refused, is simply sent again.
     */
    async invite(admin: EntityRecord, emailIn: unknown, role: unknown): Promise<{ message: string; user: EntityRecord }> {
      const send = mailOn(MAIL_OFF_MESSAGES.invite);
      const email = normalEmail(emailIn);
      if (role !== 'user' && role !== 'admin') {
        throw unprocessable('role must be "user" or "admin"', 'role');
      }
      const existing = await findAccount(store, app, email);
      let user: EntityRecord;
      if (existing) {
        if (existing.auth.password_hash || existing.user.disabled === true) throw new HttpError(409, 'EMAIL_TAKEN', 'An account with this email already exists');
        user = existing.user.role === role ? existing.user : ((await store.update(app, 'User', existing.user.id, { role })) ?? existing.user);
      } else {
        // Invited accounts are verified (the invite link proves the mailbox) but not approved: the
        // coach still completes a profile and an admin approves it, like every other coach.
        ({ user } = await createAccount(store, app, { email, role, verified: true, fields: { invited_by: admin.email ?? null } }));
      }
      const token = await setPasswordToken(email);
      try {
        await send(inviteMail(email, token, minutes(INVITE_LIFETIME_MS), deps.publicUrl, typeof admin.full_name === 'string' && admin.full_name ? admin.full_name : (admin.email as string) ?? null));
      } catch (err) {
        deps.log(`Mail: an invitation to ${maskAddress(email)} was not sent (${mailErrorSummary(err)}).`);
        throw mailFailed('The invitation could not be sent: the mail server did not take it. Invite the same address again in a few minutes.');
      }
      return { message: `Invitation sent to ${email}`, user };
    },

    setPasswordToken,
  };
}

const MAIL_INTERVAL_MS = 30_000;
// 7 days for an invitation: people do not always read mail the day it is sent.
export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

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
