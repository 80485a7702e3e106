/**
 * How the server sends mail (issue #25.1), chosen once at start from SMTP_URL and MAIL_FROM:
 *
 * - `smtp`: nodemailer over `smtp://user:password@host:587` (STARTTLS when the server offers it) or
 *   `smtps://…:465` (TLS from the first byte), sender MAIL_FROM.
 * - `console`: a loopback or demo start without SMTP prints each mail, marked "(demo: this mail was
 *   not sent)", so the demo's sign-up and reset can be tried without a mail server.
 * - `off`: a production start (DEMO=0, or a reachable HOST without DEMO=1) without SMTP. Nothing
 *   that needs mail pretends to work: sign-up, reset and invitations answer 503 `MAIL_OFF` saying
 *   mail is not set up, and the start-up log says so. Codes and links never reach a log.
 */
import { createTransport } from 'nodemailer';
import type { Mail, SendMail } from './messages';

export type MailSetup = { mode: 'smtp'; url: string; from: string } | { mode: 'console' } | { mode: 'off' };

export interface Mailer {
  mode: MailSetup['mode'];
  /** null when mail is off. */
  send: SendMail | null;
  /** Connects and says hello (SMTP only): rejects when the server refuses; a start-up check. */
  verify(): Promise<void>;
  close(): void;
}

/**
 * The mail setup from the environment. `demo`: a loopback start that did not say DEMO=0, or DEMO=1
 * (main.ts); only then may mail go to the console. Throws with a message naming the setting.
 */
export function mailSetupFromEnv(env: Record<string, string | undefined>, demo: boolean): MailSetup {
  const url = env.SMTP_URL?.trim();
  const from = env.MAIL_FROM?.trim();
  if (!url) {
    if (from) throw new Error('MAIL_FROM is set but SMTP_URL is not: set SMTP_URL to smtp://user:password@host:587 or smtps://user:password@host:465');
    return demo ? { mode: 'console' } : { mode: 'off' };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('SMTP_URL is not a valid address: use smtp://user:password@host:587 or smtps://user:password@host:465');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new Error('SMTP_URL must start with smtp:// or smtps:// (e.g. smtps://user:password@mail.example.org:465)');
  }
  if (!parsed.hostname) throw new Error('SMTP_URL names no host');
  if (!from) throw new Error('MAIL_FROM must be set with SMTP_URL: the sender of every mail, e.g. "Passage <passage@academy.example.org>"');
  if (!/^(?:[^<>]*<)?[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>?$/.test(from)) {
    throw new Error('MAIL_FROM is not an e-mail address: use passage@academy.example.org or "Passage <passage@academy.example.org>"');
  }
  return { mode: 'smtp', url, from };
}

/** Connecting and the server's greeting get 10 s each, any later silence 20 s: a request never hangs on mail. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export function createMailer(setup: MailSetup, log: (line: string) => void): Mailer {
  if (setup.mode === 'off') return { mode: 'off', send: null, verify: async () => {}, close() {} };
  if (setup.mode === 'console') {
    return {
      mode: 'console',
      async send(mail: Mail) {
        log(`(demo: this mail was not sent) To: ${mail.to} · Subject: ${mail.subject}\n${mail.text}`);
      },
      verify: async () => {},
      close() {},
    };
  }
  const transport = createTransport({ url: setup.url, ...TIMEOUTS }, { from: setup.from });
  return {
    mode: 'smtp',
    async send(mail: Mail) {
      await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    async verify() {
      await transport.verify();
    },
    close() {
      transport.close();
    },
  };
}

/**
 * What a failed send may put in a log: the error's code and the SMTP reply code, never its
 * message (a server's reply often quotes the recipient: "550 <someone@…>: no such user").
 */
export function mailErrorSummary(err: unknown): string {
  const e = err as { code?: unknown; responseCode?: unknown; command?: unknown };
  const parts = [e.code, e.command, e.responseCode].filter((p) => typeof p === 'string' || typeof p === 'number');
  return parts.length ? parts.join(' ') : 'unknown error';
}
