/**
 * Accounts: a public User record (entity 'User', what the API returns) plus a private auth record
 * (password hash, lockout, one-time secrets) keyed by e-mail, which no entity route can read.
 */
import { HttpError } from '../errors';
import type { AuthRecord, EntityRecord, Store } from '../store/types';
import { hashPassword } from './password';

export interface AuthState extends AuthRecord {
  password_hash?: string | null;
  failed_logins?: string[];
  locked_until?: string | null;
  otp_hash?: string | null;
  otp_expires?: string | null;
  otp_tries?: number;
  reset_hash?: string | null;
  reset_expires?: string | null;
  /** Tokens issued before this second are refused: set when the password changes. */
  tokens_valid_after?: string | null;
  /** Goes up by one at every password change or reset; tokens carry it (claim `ver`). */
  token_version?: number;
  /** Failed sign-ins per source (client address): see lockout.ts. */
  login_failures?: Record<string, { failed_logins?: string[]; locked_until?: string | null }>;
  /** A registration not yet verified may not be replaced before this time (issue #10.4). */
  pending_until?: string | null;
  /** When the last code or reset mail went out (throttle). */
  last_mail_at?: string | null;
}

/**
 * Whether a token predates the account's last password change: its `ver` is not the account's
 * token_version (exact, even within one second), or (tokens from before versions) its `iat` is
 * before tokens_valid_after.
 */
export function tokenRevoked(auth: AuthState | null, claims: { iat: number; ver: number }): boolean {
  if (!auth) return false;
  if (claims.ver !== (auth.token_version ?? 0)) return true;
  if (!auth.tokens_valid_after) return false;
  return claims.ver === 0 && claims.iat < Math.floor(new Date(auth.tokens_valid_after).getTime() / 1000);
}

// No whitespace, no control characters (a NUL byte cannot be stored in PostgreSQL text).
// \p{Cc}: C0, DEL and C1 control characters.
const EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;

/** Lower-cased, trimmed e-mail, or a 400 when it is not one (254: the SMTP path limit). */
export function normalEmail(value: unknown): string {
  if (typeof value !== 'string') throw new HttpError(400, 'BAD_REQUEST', 'Email is required');
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw new HttpError(400, 'BAD_REQUEST', 'Please enter a valid email address');
  return email;
}

export async function findAccount(store: Store, app: string, email: string): Promise<{ auth: AuthState; user: EntityRecord } | null> {
  const auth = (await store.getAuth(app, email)) as AuthState | null;
  if (!auth) return null;
  const user = await store.get(app, 'User', auth.user_id);
  return user ? { auth, user } : null;
}

export interface NewAccount {
  email: string;
  password?: string;
  full_name?: string | null;
  role: 'admin' | 'user' | 'guest';
  verified: boolean;
  /** More User fields (profile, approval) — used by the demo seed and invitations. */
  fields?: Record<string, unknown>;
  auth?: Partial<AuthState>;
}

export async function createAccount(store: Store, app: string, input: NewAccount): Promise<{ auth: AuthState; user: EntityRecord }> {
  const user = await store.create(
    app,
    'User',
    {
      disabled: false,
      ...input.fields,
      email: input.email,
      full_name: input.full_name ?? null,
      role: input.role,
      is_verified: input.verified,
      app_id: app,
    },
    { by: null, byId: null },
  );
  const auth: AuthState = {
    ...input.auth,
    user_id: user.id,
    email: input.email,
    password_hash: input.password ? await hashPassword(input.password) : null,
  };
  await store.putAuth(app, input.email, auth);
  return { auth, user };
}
