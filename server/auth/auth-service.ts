/**
 * The sign-in flows (platform-contract.md 3.1), shared by the JSON routes and the login page:
 * login with lockout, register + e-mailed OTP, password reset, change password and invitations.
 * Every failure is an HttpError; nothing here knows about HTTP requests.
 */
import { HttpError } from '../errors';
import type { EntityRecord, Store } from '../store/types';
import { createAccount, findAccount, normalEmail, type AuthState } from './accounts';
import { lockedUntil, recordFailure, recordSuccess } from './lockout';
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
import { issueToken } from './tokens';

export interface AuthDeps {
  store: Store;
  appId: string;
  jwtKey: Uint8Array;
  /** Keys the one-time-secret hashes. */
  secret: string;
  now: () => Date;
  /** PUBLIC_URL: links in mails start with it (never with the request's Host header). */
  publicUrl: string;
  notify: (to: string, subject: string, text: string) => Promise<void>;
}

export interface SignedIn {
  access_token: string;
  user: EntityRecord;
}

const badCredentials = () => new HttpError(401, 'INVALID_CREDENTIALS', 'Invalid email or password');
const badPassword = (password: unknown) => {
  const problem = passwordProblem(password);
  if (problem) throw new HttpError(422, 'VALIDATION_ERROR', problem, { field: 'password' });
};

export function createAuthService(deps: AuthDeps) {
  const { store, appId: app } = deps;
  const put = (auth: AuthState) => store.putAuth(app, auth.email, auth);
  const signIn = async (user: EntityRecord): Promise<SignedIn> => ({
    access_token: await issueToken(deps.jwtKey, user.id, app, deps.now()),
    user,
  });

  /** At most one sign-in mail per account per 30 s, so nobody can flood a mailbox through us. */
  const mailedRecently = (auth: AuthState) =>
    typeof auth.last_mail_at === 'string' && deps.now().getTime() - new Date(auth.last_mail_at).getTime() < MAIL_INTERVAL_MS;

  async function sendOtp(auth: AuthState): Promise<AuthState> {
    if (mailedRecently(auth)) {
      await put(auth);
      return auth;
    }
    const code = newOtp();
    const next: AuthState = {
      ...auth,
      otp_hash: hashSecret(deps.secret, `otp:${auth.email}`, code),
      otp_expires: new Date(deps.now().getTime() + OTP_LIFETIME_MS).toISOString(),
      otp_tries: 0,
      last_mail_at: deps.now().toISOString(),
    };
    await put(next);
    await deps.notify(auth.email, 'Your Passage verification code', `Your verification code is ${code}. It expires in 10 minutes.`);
    return next;
  }

  return {
    async login(emailIn: unknown, password: unknown): Promise<SignedIn> {
      const email = normalEmail(emailIn);
      if (typeof password !== 'string' || password === '') throw badCredentials();
      const now = deps.now();
      const account = await findAccount(store, app, email);
      if (!account) {
        await verifyPassword(password, null); // same time as a wrong password: no account probing
        throw badCredentials();
      }
      const until = lockedUntil(account.auth, now);
      if (until) {
        const minutes = Math.ceil((until.getTime() - now.getTime()) / 60_000);
        throw new HttpError(429, 'ACCOUNT_LOCKED', `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
          retry_after_seconds: Math.ceil((until.getTime() - now.getTime()) / 1000),
        });
      }
      if (!(await verifyPassword(password, account.auth.password_hash))) {
        await put({ ...account.auth, ...recordFailure(account.auth, now) });
        throw badCredentials();
      }
      if (account.auth.failed_logins?.length || account.auth.locked_until) await put({ ...account.auth, ...recordSuccess() });
      if (account.user.disabled === true) throw new HttpError(403, 'ACCOUNT_DISABLED', 'This account has been disabled. Contact your administrator.');
      if (account.user.is_verified !== true) {
        throw new HttpError(403, 'EMAIL_NOT_VERIFIED', 'Please verify your email first: enter the code we sent you, or request a new one.');
      }
      return signIn(account.user);
    },

    async register(body: { email?: unknown; password?: unknown; full_name?: unknown }): Promise<{ message: string; email: string }> {
      const email = normalEmail(body.email);
      badPassword(body.password);
      const fullName = typeof body.full_name === 'string' ? body.full_name.trim().slice(0, 200) || null : null;
      const existing = await findAccount(store, app, email);
      if (existing?.user.is_verified === true) {
        throw new HttpError(409, 'EMAIL_TAKEN', 'An account with this email already exists. Sign in or reset your password.');
      }
      let auth: AuthState;
      if (existing) {
        // Registering again before verifying: new password, new code. Only the mailbox owner can finish.
        auth = { ...existing.auth, password_hash: await hashPassword(body.password as string) };
        if (fullName) await store.update(app, 'User', existing.user.id, { full_name: fullName });
      } else {
        ({ auth } = await createAccount(store, app, { email, password: body.password as string, full_name: fullName, role: 'user', verified: false }));
      }
      await sendOtp(auth);
      return { message: 'We sent a 6-digit code to your email. It expires in 10 minutes.', email };
    },

    async resendOtp(emailIn: unknown): Promise<{ message: string }> {
      const email = normalEmail(emailIn);
      const account = await findAccount(store, app, email);
      if (account && account.user.is_verified !== true) await sendOtp(account.auth);
      return { message: 'If that account is waiting for verification, a new code is on its way. It expires in 10 minutes.' };
    },

    async verifyOtp(emailIn: unknown, code: unknown): Promise<SignedIn> {
      const email = normalEmail(emailIn);
      const wrong = new HttpError(400, 'INVALID_OTP', 'That code is not correct');
      const account = await findAccount(store, app, email);
      if (!account || typeof code !== 'string' && typeof code !== 'number') throw wrong;
      const { auth } = account;
      if (!auth.otp_hash || !auth.otp_expires || new Date(auth.otp_expires) <= deps.now()) {
        throw new HttpError(400, 'OTP_EXPIRED', 'That code has expired. Request a new one.');
      }
      if (!sameHash(auth.otp_hash, hashSecret(deps.secret, `otp:${email}`, String(code).trim()))) {
        const tries = (auth.otp_tries ?? 0) + 1;
        if (tries >= OTP_MAX_TRIES) {
          await put({ ...auth, otp_hash: null, otp_expires: null, otp_tries: tries });
          throw new HttpError(400, 'OTP_TOO_MANY_TRIES', 'Too many wrong codes. Request a new one.');
        }
        await put({ ...auth, otp_tries: tries });
        throw wrong;
      }
      await put({ ...auth, otp_hash: null, otp_expires: null, otp_tries: 0 });
      const user = (await store.update(app, 'User', account.user.id, { is_verified: true })) ?? account.user;
      return signIn(user);
    },

    async requestReset(emailIn: unknown): Promise<{ message: string }> {
      const message = 'If an account exists for that email, we sent a reset code. It expires in 30 minutes.';
      // A malformed address is a 400 (its syntax tells nothing about which accounts exist).
      const email = normalEmail(emailIn);
      const account = await findAccount(store, app, email);
      if (account && account.user.disabled !== true && !mailedRecently(account.auth)) {
        const token = newResetToken(email);
        await put({
          ...account.auth,
          reset_hash: hashSecret(deps.secret, 'reset', token),
          reset_expires: new Date(deps.now().getTime() + RESET_LIFETIME_MS).toISOString(),
          last_mail_at: deps.now().toISOString(),
        });
        await deps.notify(email, 'Reset your Passage password', resetText(token, deps.publicUrl, 30));
      }
      return { message };
    },

    async resetPassword(token: unknown, newPassword: unknown): Promise<SignedIn> {
      const invalid = new HttpError(400, 'INVALID_RESET_TOKEN', 'This reset link is invalid or has expired. Request a new one.');
      const email = emailOfResetToken(token);
      const account = email ? await findAccount(store, app, email) : null;
      if (!account || !account.auth.reset_hash || !account.auth.reset_expires) throw invalid;
      if (new Date(account.auth.reset_expires) <= deps.now()) throw invalid;
      if (!sameHash(account.auth.reset_hash, hashSecret(deps.secret, 'reset', token as string))) throw invalid;
      if (account.user.disabled === true) throw new HttpError(403, 'ACCOUNT_DISABLED', 'This account has been disabled. Contact your administrator.');
      badPassword(newPassword);
      await put({
        ...account.auth,
        password_hash: await hashPassword(newPassword as string),
        reset_hash: null,
        reset_expires: null,
        tokens_valid_after: deps.now().toISOString(),
        ...recordSuccess(),
      });
      // The reset link reached the mailbox, which proves the address just as an OTP would.
      const user = account.user.is_verified === true ? account.user : ((await store.update(app, 'User', account.user.id, { is_verified: true })) ?? account.user);
      return signIn(user);
    },

    /** Signs out every other session; the answer carries a fresh token for this one. */
    async changePassword(caller: EntityRecord, body: { user_id?: unknown; current_password?: unknown; new_password?: unknown }): Promise<{ message: string } & SignedIn> {
      if (body.user_id !== caller.id) throw new HttpError(403, 'FORBIDDEN', 'You can only change your own password');
      const account = await findAccount(store, app, String(caller.email));
      if (!account || typeof body.current_password !== 'string' || !(await verifyPassword(body.current_password, account.auth.password_hash))) {
        throw new HttpError(400, 'INVALID_CREDENTIALS', 'The current password is not correct');
      }
      badPassword(body.new_password);
      await put({ ...account.auth, password_hash: await hashPassword(body.new_password as string), tokens_valid_after: deps.now().toISOString() });
      return { message: 'Password changed', ...(await signIn(account.user)) };
    },

    async invite(admin: EntityRecord, emailIn: unknown, role: unknown): Promise<{ message: string; user: EntityRecord }> {
      const email = normalEmail(emailIn);
      if (role !== 'user' && role !== 'admin') {
        throw new HttpError(422, 'VALIDATION_ERROR', 'role must be "user" or "admin"', { field: 'role' });
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
