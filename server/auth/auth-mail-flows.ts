/**
 * The auth flows that send mail (platform-contract.md 3.1), composed into the auth service by
 * auth-service.ts: sign-up with its e-mailed one-time code (register, resend, verify), the reset
 * mail, invitations and their set-password link, and the 503 answers when mail is off
 * (MAIL_OFF_MESSAGES). The password checks themselves (sign-in, lockout, change, reset) stay in
 * auth-service.ts. Every failure is an HttpError; nothing here knows about HTTP requests.
 */
import { HttpError, unprocessable } from '../errors';
import { mailErrorSummary } from '../mail/mailer';
import { inviteMail, maskAddress, otpMail, resetMail, type Mail, type SendMail } from '../mail/messages';
import { StoreError } from '../store/errors';
import type { EntityRecord } from '../store/types';
import { createAccount, findAccount, normalEmail, type AuthState } from './accounts';
import type { AuthDeps } from './auth-service';
import { hashPassword } from './password';
import { hashSecret, newOtp, newResetToken, OTP_LIFETIME_MS, OTP_MAX_TRIES, RESET_LIFETIME_MS, sameHash } from './secrets';
import type { Grant } from './sessions';

/** What mail-dependent requests answer when mail is off (503 MAIL_OFF). */
export const MAIL_OFF_MESSAGES = {
  signUp: 'Creating an account needs e-mail, which is not set up on this server. Ask an administrator.',
  reset: 'Password reset by e-mail is not set up on this server. Ask an administrator.',
  invite: 'Invitations are sent by e-mail, which is not set up on this server. Ask whoever runs it to set SMTP_URL and MAIL_FROM.',
} as const;
const mailOff = (message: string) => new HttpError(503, 'MAIL_OFF', message);
const mailFailed = (message = 'We could not send the e-mail just now. Please try again in a few minutes.') => new HttpError(503, 'MAIL_FAILED', message);

/** What the mail flows borrow from the password side of the auth service (auth-service.ts). */
interface PasswordHelpers {
  grantOf: (user: EntityRecord, version: number) => Grant;
  badPassword: (password: unknown) => void;
}

export function createMailFlows(deps: AuthDeps, { grantOf, badPassword }: PasswordHelpers) {
  const { store, appId: app } = deps;
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
   * Writes `fields` and the time of a mail into the account's auth state, unless a mail went out
   * in the last 30 s. Returns that time (the mark a failed send clears), or null when it did not.
   */
  async function claimMail(email: string, fields: Partial<AuthState>): Promise<string | null> {
    const sentAt = deps.now().toISOString();
    let claimed = false;
    await store.updateAuth(app, email, (current) => {
      const auth = current as AuthState;
      if (mailedRecently(auth)) return undefined;
      claimed = true;
      return { ...auth, ...fields, last_mail_at: sentAt };
    });
    return claimed ? sentAt : null;
  }

  /**
   * A new code for an unverified account, unless one went out in the last 30 s. When the mail
   * server refuses it, the code is withdrawn (and, for a new registration, the hold on the address
   * lifted) so the person can simply try again, and the request answers 503 MAIL_FAILED.
   */
  async function sendOtp(email: string, send: SendMail, newRegistration = false): Promise<void> {
    const code = newOtp();
    const hash = hashSecret(deps.secret, `otp:${email}`, code);
    const sentAt = await claimMail(email, { otp_hash: hash, otp_expires: new Date(deps.now().getTime() + OTP_LIFETIME_MS).toISOString(), otp_tries: 0 });
    if (!sentAt) return;
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

  /**
   * A new account, or — once the earlier registration's code has expired — a new password for an
   * unverified one. While a code is outstanding the registration is not replaced (409), so nobody
   * can swap in their own password for the code the mailbox owner is about to enter.
   */
  async function register(body: { email?: unknown; password?: unknown; full_name?: unknown }): Promise<{ message: string; email: string }> {
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
  }

  async function resendOtp(emailIn: unknown): Promise<{ message: string }> {
    const send = mailOn(MAIL_OFF_MESSAGES.signUp);
    const email = normalEmail(emailIn);
    const account = await findAccount(store, app, email);
    if (account && account.user.is_verified !== true) await sendOtp(email, send);
    return { message: 'If that account is waiting for verification, a new code is on its way. It expires in 10 minutes.' };
  }

  async function verifyOtp(emailIn: unknown, code: unknown): Promise<Grant> {
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
  }

  async function requestReset(emailIn: unknown): Promise<{ message: string }> {
    const message = 'If an account exists for that email, we sent a reset code. It expires in 30 minutes.';
    // Off for every address alike, so the answer still tells nothing about which accounts exist.
    const send = mailOn(MAIL_OFF_MESSAGES.reset);
    // A malformed address is a 400 (its syntax tells nothing about which accounts exist).
    const email = normalEmail(emailIn);
    const account = await findAccount(store, app, email);
    if (account && account.user.disabled !== true) {
      const token = newResetToken(email);
      const sentAt = await claimMail(email, {
        reset_hash: hashSecret(deps.secret, 'reset', token),
        reset_expires: new Date(deps.now().getTime() + RESET_LIFETIME_MS).toISOString(),
      });
      // In the background: a refusing or slow mail server must not make this answer differ
      // (in status or in time) from the one for an address without an account.
      if (sentAt) {
        sendInBackground(send, resetMail(email, token, minutes(RESET_LIFETIME_MS), deps.publicUrl), 'a reset mail', () =>
          store.updateAuth(app, email, (current) => {
            const a = current as AuthState;
            return a.last_mail_at === sentAt ? { ...a, last_mail_at: null } : undefined;
          }),
        );
      }
    }
    return { message };
  }

  /**
   * Creates the account and mails its set-password link. An account that has never had a password
   * (invited, link not used yet) may be invited again: a new link replaces the old one, so an
   * expired invitation, or one the mail server refused, is simply sent again.
   */
  async function invite(admin: EntityRecord, emailIn: unknown, role: unknown): Promise<{ message: string; user: EntityRecord }> {
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
  }

  return { register, resendOtp, verifyOtp, requestReset, invite, setPasswordToken };
}

const MAIL_INTERVAL_MS = 30_000;
// 7 days for an invitation: people do not always read mail the day it is sent.
export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

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
