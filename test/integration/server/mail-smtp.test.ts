/**
 * Issue #25.1: mail through a real SMTP server (in-process, with a password). A reset, an
 * invitation and a verification code are sent through the app and read back as a person's mail
 * program would: recipient, sender, subject, a link that starts with PUBLIC_URL (whatever Host the
 * request named), and a code or link that works. A mail server that refuses, and a server whose
 * mail is off, answer in words a person understands, and the reset answer still tells nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createAccount } from '../../../server/auth/accounts';
import { createMailer } from '../../../server/mail/mailer';
import type { Store } from '../../../server/store/index';
import { newTestStore, type TestStore } from '../../support/test-databases';
import { linkOf, startMailServer, type TestMailServer } from './mail-test-server';

const APP = 'mail-test';
const PUBLIC_URL = 'https://passage.academy.example.org';
const FROM = 'Passage <passage@academy.example.org>';
const PASSWORD = 'admin-pass-2026';

let smtp: TestMailServer;
let opened: TestStore;
let store: Store;
let app: ReturnType<typeof createApp>;
let offApp: ReturnType<typeof createApp>;
const logs: string[] = [];

beforeAll(async () => {
  smtp = await startMailServer();
  opened = await newTestStore();
  store = opened.store;
  await createAccount(store, APP, { email: 'admin@academy.example.org', password: PASSWORD, full_name: 'Ada Admin', role: 'admin', verified: true, fields: { approved: true } });
  const mailer = createMailer({ mode: 'smtp', url: smtp.url, from: FROM }, () => {});
  app = createApp({ store, appId: APP, jwtSecret: 'mail-test-secret-0123456789abcdef012345', publicUrl: PUBLIC_URL, mailer: mailer.send!, mailRetryDelaysMs: [50, 50], log: (l) => logs.push(l) });
  offApp = createApp({ store, appId: APP, jwtSecret: 'mail-test-secret-0123456789abcdef012345', publicUrl: PUBLIC_URL, mailer: 'off', log: (l) => logs.push(l) });
});
afterAll(async () => {
  await smtp?.close();
  await opened?.close();
});

const post = async (path: string, body: unknown, opts: { token?: string; host?: string; on?: typeof app } = {}) => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await (opts.on ?? app).request(`http://${opts.host ?? 'localhost'}/api/apps/${APP}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const signIn = async (email: string, password: string) => (await post('/auth/login', { email, password })).body.access_token as string;

describe('mail through SMTP', () => {
  it('mails a reset link built from PUBLIC_URL, even when the request names another Host, and the link works', async () => {
    const since = smtp.received.length;
    const asked = await post('/auth/reset-password-request', { email: 'Admin@Academy.example.org' }, { host: 'evil.example.net' });
    expect(asked.status).toBe(200);
    const unknown = await post('/auth/reset-password-request', { email: 'nobody@academy.example.org' });
    expect(unknown.body.message, 'the same answer whether or not the account exists').toBe(asked.body.message);

    const mail = await smtp.next('admin@academy.example.org', since);
    expect(mail.subject).toBe('Reset your Passage password');
    expect(mail.from?.value[0]).toMatchObject({ name: 'Passage', address: 'passage@academy.example.org' });
    const { link, token } = linkOf(mail);
    expect(link.startsWith(`${PUBLIC_URL}/login?reset_token=`)).toBe(true);
    expect(mail.text).not.toContain('evil.example.net');
    expect(mail.text).toContain('expires in 30 minutes');
    expect(mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);

    const reset = await post('/auth/reset-password', { reset_token: token, new_password: 'admin-pass-2027' });
    expect(reset.status).toBe(200);
    expect(await signIn('admin@academy.example.org', 'admin-pass-2027')).toBeTruthy();
    expect((await post('/auth/reset-password', { reset_token: token, new_password: 'admin-pass-2028' })).status, 'a link works once').toBe(400);
    expect(smtp.received.slice(since).some((m) => m.text?.includes('nobody@')), 'no mail for an address without an account').toBe(false);
  });

  it('mails an invitation naming who invited, whose link sets the password', async () => {
    const admin = await signIn('admin@academy.example.org', 'admin-pass-2027');
    const since = smtp.received.length;
    const invited = await post('/users/invite-user', { user_email: 'new.coach@academy.example.org', role: 'user' }, { token: admin });
    expect(invited.status).toBe(200);
    const mail = await smtp.next('new.coach@academy.example.org', since);
    expect(mail.subject).toBe('You are invited to Passage');
    expect(mail.text).toContain('Ada Admin invited you to Passage');
    expect(mail.text).toContain('expires in 7 days');
    const { link, token } = linkOf(mail);
    expect(link.startsWith(`${PUBLIC_URL}/login?reset_token=`)).toBe(true);
    expect((await post('/auth/reset-password', { reset_token: token, new_password: 'coach-pass-2026' })).status).toBe(200);
    expect(await signIn('new.coach@academy.example.org', 'coach-pass-2026')).toBeTruthy();
  });

  it('mails a 6-digit verification code at sign-up, and the code signs the person in', async () => {
    const since = smtp.received.length;
    const registered = await post('/auth/register', { email: 'learner@academy.example.org', password: 'learner-pass-2026', full_name: 'Lee Learner' });
    expect(registered.status).toBe(200);
    const mail = await smtp.next('learner@academy.example.org', since);
    expect(mail.subject).toBe('Your Passage verification code');
    const code = /code is (\d{6})/.exec(mail.text ?? '')![1];
    const verified = await post('/auth/verify-otp', { email: 'learner@academy.example.org', otp_code: code });
    expect(verified.status).toBe(200);
    expect(typeof verified.body.access_token).toBe('string');
  });

  it('answers 503 in plain words when the mail server refuses a code, and a second try works', async () => {
    smtp.refuse.add('blocked@academy.example.org');
    const refused = await post('/auth/register', { email: 'blocked@academy.example.org', password: 'blocked-pass-2026' });
    expect(refused).toMatchObject({ status: 503, body: { code: 'MAIL_FAILED', message: 'We could not send the e-mail just now. Please try again in a few minutes.' } });
    expect(logs.join('\n')).toContain('b***@academy.example.org');
    expect(logs.join('\n'), 'no full address in the log').not.toContain('blocked@academy.example.org');

    smtp.refuse.delete('blocked@academy.example.org');
    const since = smtp.received.length;
    const again = await post('/auth/register', { email: 'blocked@academy.example.org', password: 'blocked-pass-2026' });
    expect(again.status, 'the refused code held nothing back').toBe(200);
    await smtp.next('blocked@academy.example.org', since);
  });

  it('keeps a refused reset mail invisible to the asker, retries it, then lets them ask again', async () => {
    const email = 'new.coach@academy.example.org';
    smtp.refuse.add(email);
    const asked = await post('/auth/reset-password-request', { email });
    expect(asked.status).toBe(200);
    await expect.poll(() => logs.filter((l) => l.includes('a reset mail to n***@academy.example.org')).length, { timeout: 5_000 }).toBe(3);
    expect(logs.join('\n')).toContain('giving up');
    smtp.refuse.delete(email);
    const since = smtp.received.length;
    // The 30-second throttle was lifted when the mail was given up, so asking again sends one.
    expect((await post('/auth/reset-password-request', { email })).status).toBe(200);
    const mail = await smtp.next(email, since);
    expect(linkOf(mail).link.startsWith(PUBLIC_URL)).toBe(true);
  });

  it('answers 503 when an invitation is refused; inviting again sends a new link', async () => {
    const admin = await signIn('admin@academy.example.org', 'admin-pass-2027');
    const email = 'later@academy.example.org';
    smtp.refuse.add(email);
    const refused = await post('/users/invite-user', { user_email: email, role: 'user' }, { token: admin });
    expect(refused.status).toBe(503);
    expect(refused.body.message).toContain('Invite the same address again');
    smtp.refuse.delete(email);
    const since = smtp.received.length;
    expect((await post('/users/invite-user', { user_email: email, role: 'user' }, { token: admin })).status).toBe(200);
    const { token } = linkOf(await smtp.next(email, since));
    expect((await post('/auth/reset-password', { reset_token: token, new_password: 'later-pass-2026' })).status).toBe(200);
  });
});

describe('mail off (a production start without SMTP_URL)', () => {
  it('says so on the API and the sign-in page instead of pretending a mail went out', async () => {
    const since = smtp.received.length;
    const reset = await post('/auth/reset-password-request', { email: 'admin@academy.example.org' }, { on: offApp });
    expect(reset).toMatchObject({ status: 503, body: { code: 'MAIL_OFF', message: 'Password reset by e-mail is not set up on this server. Ask an administrator.' } });
    const unknown = await post('/auth/reset-password-request', { email: 'nobody@academy.example.org' }, { on: offApp });
    expect(unknown.body, 'the same answer for an address without an account').toEqual(reset.body);

    const register = await post('/auth/register', { email: 'walkin@academy.example.org', password: 'walkin-pass-2026' }, { on: offApp });
    expect(register).toMatchObject({ status: 503, body: { code: 'MAIL_OFF' } });
    expect(await store.getAuth(APP, 'walkin@academy.example.org'), 'no account is made').toBeNull();

    const admin = (await post('/auth/login', { email: 'admin@academy.example.org', password: 'admin-pass-2027' }, { on: offApp })).body.access_token;
    const invite = await post('/users/invite-user', { user_email: 'someone@academy.example.org', role: 'user' }, { token: admin, on: offApp });
    expect(invite).toMatchObject({ status: 503, body: { code: 'MAIL_OFF' } });
    expect(invite.body.message).toContain('SMTP_URL');

    const page = await offApp.request('http://localhost/login?mode=reset');
    expect(await page.text()).toContain('Password reset by e-mail is not set up on this server. Ask an administrator.');
    const form = await offApp.request('http://localhost/login/reset-request', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=admin%40academy.example.org&from_url=%2F',
    });
    expect(form.status).toBe(503);
    expect(await form.text()).toContain('Password reset by e-mail is not set up on this server.');
    expect(smtp.received.length, 'nothing was sent').toBe(since);
  });
});
