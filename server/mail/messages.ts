/**
 * The mails Passage sends (issue #25.1): a 6-digit code to confirm an address, a password-reset
 * link and code, an invitation, and the set-password mail of `npm run admin:create`. Plain text with
 * a simple HTML alternative. Links start with PUBLIC_URL, never with a request's Host header.
 */
import { PRODUCT } from '../../shared/config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends one mail; rejects when the mail server did not take it. */
export type SendMail = (mail: Mail) => Promise<void>;

/** A paragraph of text, or a link shown on its own line. */
type Part = string | { link: string };

function compose(to: string, subject: string, parts: Part[], publicUrl: string): Mail {
  const footer = `${PRODUCT} · ${publicUrl}`;
  const text = [...parts.map((p) => (typeof p === 'string' ? p : p.link)), `— ${footer}`].join('\n\n') + '\n';
  const html =
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:16px;line-height:1.5;color:#0f172a">' +
    parts
      .map((p) =>
        typeof p === 'string'
          ? `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`
          : `<p><a href="${escapeHtml(p.link)}" style="color:#1d4ed8">${escapeHtml(p.link)}</a></p>`,
      )
      .join('') +
    `<p style="color:#64748b;font-size:14px">${escapeHtml(footer)}</p></body></html>`;
  return { to, subject, text, html };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);
}

/** The page that takes a reset or invitation token: /login?reset_token=…. */
export function setPasswordLink(publicUrl: string, token: string): string {
  return `${publicUrl}/login?reset_token=${encodeURIComponent(token)}`;
}

function span(minutes: number): string {
  if (minutes >= 1440) {
    const days = Math.round(minutes / 1440);
    return `${days} day${days === 1 ? '' : 's'}`;
  }
  return `${minutes} minutes`;
}

export function otpMail(to: string, code: string, minutes: number, publicUrl: string): Mail {
  return compose(
    to,
    `Your ${PRODUCT} verification code`,
    [
      'Hello,',
      `Your verification code is ${code}. Enter it on the ${PRODUCT} sign-in page to confirm your e-mail address. It expires in ${span(minutes)}.`,
      `If you did not create a ${PRODUCT} account, ignore this e-mail: no account is made without the code.`,
    ],
    publicUrl,
  );
}

export function resetMail(to: string, token: string, minutes: number, publicUrl: string): Mail {
  return compose(
    to,
    `Reset your ${PRODUCT} password`,
    [
      'Hello,',
      `Someone (we hope you) asked to reset the password of your ${PRODUCT} account. To choose a new password, open this link:`,
      { link: setPasswordLink(publicUrl, token) },
      `Or enter this reset code on the sign-in page:\n${token}`,
      `The link works once and expires in ${span(minutes)}. If you did not ask for this, ignore this e-mail: your password stays as it is.`,
    ],
    publicUrl,
  );
}

export function inviteMail(to: string, token: string, minutes: number, publicUrl: string, invitedBy: string | null): Mail {
  return compose(
    to,
    `You are invited to ${PRODUCT}`,
    [
      'Hello,',
      `${invitedBy ? invitedBy : 'An administrator'} invited you to ${PRODUCT}, where the academy keeps its participants, cohorts and attendance. To set your password and sign in, open this link:`,
      { link: setPasswordLink(publicUrl, token) },
      `The link works once and expires in ${span(minutes)}. After you sign in, complete your profile; an administrator then approves your access.`,
    ],
    publicUrl,
  );
}

/** `npm run admin:create`: the new (or promoted) administrator sets a password. */
export function adminMail(to: string, token: string, minutes: number, publicUrl: string): Mail {
  return compose(
    to,
    `Set your ${PRODUCT} administrator password`,
    [
      'Hello,',
      `You are now an administrator of ${PRODUCT} at ${publicUrl}. To set your password and sign in, open this link:`,
      { link: setPasswordLink(publicUrl, token) },
      `The link works once and expires in ${span(minutes)}.`,
    ],
    publicUrl,
  );
}

/**
 * An address as it may appear in a log: the first character of the local part and the domain
 * (`c***@example.org`), so an operator can tell mails apart without the log holding addresses.
 */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address[0]}***${address.slice(at)}`;
}
