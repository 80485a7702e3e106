/**
 * A real SMTP server in-process (smtp-server) for the mail tests: it asks for a user name and
 * password, keeps every message it accepted (parsed with mailparser), and can be told to refuse
 * recipients, as a mail server does for an unknown or blocked address.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TestMailServer {
  /** smtp://user:password@127.0.0.1:port */
  url: string;
  received: ParsedMail[];
  /** Addresses answered 550 at RCPT TO while listed. */
  refuse: Set<string>;
  /** Waits for a message to `to` accepted after `since` messages (default: any so far). */
  next(to: string, since?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export const SMTP_USER = 'passage-mailer';
export const SMTP_PASSWORD = 'smtp-test-password-1';

export async function startMailServer(): Promise<TestMailServer> {
  const received: ParsedMail[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) cb(null, { user: auth.username });
      else cb(new Error('Invalid user name or password'));
    },
    onRcptTo(address, _session, cb) {
      if (refuse.has(address.address.toLowerCase())) {
        const err = new Error(`<${address.address}>: Recipient address rejected`) as Error & { responseCode: number };
        err.responseCode = 550;
        cb(err);
      } else cb();
    },
    onData(stream, _session, cb) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          cb();
        },
        (err: Error) => cb(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const recipients = (m: ParsedMail) => (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => v.address?.toLowerCase()));
  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    received,
    refuse,
    async next(to, since = 0) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = received.slice(since).find((m) => recipients(m).includes(to.toLowerCase()));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within 10 s (${received.length} received)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The set-password link of a reset or invitation mail, and its token. */
export function linkOf(mail: ParsedMail): { link: string; token: string } {
  const link = /(\S+\/login\?reset_token=\S+)/.exec(mail.text ?? '')?.[1];
  if (!link) throw new Error(`no link in: ${mail.text}`);
  return { link, token: decodeURIComponent(new URL(link).searchParams.get('reset_token')!) };
}
