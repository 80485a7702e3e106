/**
 * `npm run admin:create` (issue #25.5): makes an approved administrator, or promotes an existing
 * account to one, directly in the database the server uses. This is how the first administrator
 * appears when DEMO=0. The password is set by the person: a one-time set-password link (mailed
 * when SMTP is set up, else shown to whoever runs the command) or, with `--password-stdin`, read
 * from standard input.
 */
import { HttpError } from '../errors';
import { adminMail, maskAddress, setPasswordLink, type SendMail } from '../mail/messages';
import { mailErrorSummary } from '../mail/mailer';
import type { EntityRecord, Store } from '../store/types';
import { createAccount, findAccount, normalEmail, type AuthState } from './accounts';
import { INVITE_LIFETIME_MS, createAuthService } from './auth-service';
import { hashPassword, passwordProblem } from './password';
import { secretKey } from './tokens';

export interface AdminCreateInput {
  store: Store;
  appId: string;
  secret: string;
  publicUrl: string;
  /** null: mail is not set up, so the link is returned to be shown. */
  sendMail: SendMail | null;
  email: string;
  name?: string;
  /** From --password-stdin: set now instead of sending a link. */
  password?: string;
  now?: () => Date;
}

export interface AdminCreateResult {
  user: EntityRecord;
  created: boolean;
  /** How the person sets (or already has) a password. */
  password: 'set' | 'mailed' | 'link' | 'kept';
  /** The set-password link, when it must be shown (mail off, or the mail server refused). */
  link?: string;
  /** Why the mail was not sent, when it was tried. */
  mailError?: string;
  lines: string[];
}

export async function createAdministrator(input: AdminCreateInput): Promise<AdminCreateResult> {
  const { store, appId: app } = input;
  const now = input.now ?? (() => new Date());
  const email = normalEmail(input.email);
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password);
    if (problem) throw new HttpError(422, 'VALIDATION_ERROR', problem);
  }
  const name = input.name?.trim().slice(0, 200) || undefined;
  const today = now().toISOString().slice(0, 10);
  const admin = { role: 'admin', approved: true, approval_date: today, is_verified: true, disabled: false };

  const existing = await findAccount(store, app, email);
  let user: EntityRecord;
  if (existing) {
    user = (await store.update(app, 'User', existing.user.id, { ...admin, ...(name ? { full_name: name } : {}) })) ?? existing.user;
  } else {
    ({ user } = await createAccount(store, app, { email, full_name: name ?? null, role: 'admin', verified: true, fields: { approved: true, approval_date: today } }));
  }
  const created = !existing;
  const who = `${email}${created ? ' (new account)' : ' (existing account, now an administrator)'}`;

  if (input.password !== undefined) {
    const passwordHash = await hashPassword(input.password);
    // Like a reset: earlier tokens are signed out and every lockout of the account ends.
    await store.updateAuth(app, email, (current) => {
      const a = current as AuthState;
      return { ...a, password_hash: passwordHash, tokens_valid_after: now().toISOString(), token_version: (a.token_version ?? 0) + 1, login_failures: {}, pending_until: null };
    });
    return { user, created, password: 'set', lines: [`Administrator ready: ${who}.`, `Sign in at ${input.publicUrl}/login with the password you gave.`] };
  }
  if (existing?.auth.password_hash) {
    return { user, created, password: 'kept', lines: [`Administrator ready: ${who}.`, `They sign in at ${input.publicUrl}/login with their password as before.`] };
  }

  const auth = createAuthService({ store, appId: app, jwtKey: secretKey(input.secret), secret: input.secret, now, publicUrl: input.publicUrl, sendMail: input.sendMail, log: () => {} });
  const token = await auth.setPasswordToken(email);
  const days = Math.round(INVITE_LIFETIME_MS / 86_400_000);
  const link = setPasswordLink(input.publicUrl, token);
  if (input.sendMail) {
    try {
      await input.sendMail(adminMail(email, token, INVITE_LIFETIME_MS / 60_000, input.publicUrl));
      return { user, created, password: 'mailed', lines: [`Administrator ready: ${who}.`, `A set-password link was mailed to ${maskAddress(email)} (it works once, for ${days} days).`] };
    } catch (err) {
      const mailError = mailErrorSummary(err);
      return {
        user,
        created,
        password: 'link',
        link,
        mailError,
        lines: [
          `Administrator ready: ${who}.`,
          `The mail server did not take the set-password mail (${mailError}). Give this link to ${email} instead; it works once, for ${days} days:`,
          link,
        ],
      };
    }
  }
  return {
    user,
    created,
    password: 'link',
    link,
    lines: [`Administrator ready: ${who}.`, `Mail is not set up (SMTP_URL), so here is the set-password link. Open it, or give it to ${email}; it works once, for ${days} days:`, link],
  };
}
