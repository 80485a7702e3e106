/** Issue #25.1: which mailer a start gets, what the mails say, and what a log may hold of them. */
import { describe, expect, it } from 'vitest';
import { createMailer, mailErrorSummary, mailSetupFromEnv } from '../../../server/mail/mailer';
import { inviteMail, maskAddress, otpMail, resetMail } from '../../../server/mail/messages';

describe('mailSetupFromEnv', () => {
  it('prints mail only on a demo start; any other start without SMTP_URL has mail off', () => {
    expect(mailSetupFromEnv({}, true)).toEqual({ mode: 'console' });
    expect(mailSetupFromEnv({}, false)).toEqual({ mode: 'off' });
  });

  it('takes smtp:// and smtps:// with a sender', () => {
    expect(mailSetupFromEnv({ SMTP_URL: 'smtps://u:p@mail.example.org:465', MAIL_FROM: 'Passage <p@example.org>' }, false)).toEqual({
      mode: 'smtp',
      url: 'smtps://u:p@mail.example.org:465',
      from: 'Passage <p@example.org>',
    });
    expect(mailSetupFromEnv({ SMTP_URL: 'smtp://mail.example.org:587', MAIL_FROM: 'p@example.org' }, true).mode).toBe('smtp');
  });

  it('refuses a wrong setting with a message naming it', () => {
    expect(() => mailSetupFromEnv({ SMTP_URL: 'http://mail.example.org' , MAIL_FROM: 'p@example.org' }, false)).toThrow(/SMTP_URL must start with smtp:\/\/ or smtps:\/\//);
    expect(() => mailSetupFromEnv({ SMTP_URL: 'not a url', MAIL_FROM: 'p@example.org' }, false)).toThrow(/SMTP_URL is not a valid address/);
    expect(() => mailSetupFromEnv({ SMTP_URL: 'smtp://mail.example.org' }, false)).toThrow(/MAIL_FROM must be set with SMTP_URL/);
    expect(() => mailSetupFromEnv({ SMTP_URL: 'smtp://mail.example.org', MAIL_FROM: 'Passage' }, false)).toThrow(/MAIL_FROM is not an e-mail address/);
    expect(() => mailSetupFromEnv({ MAIL_FROM: 'p@example.org' }, false)).toThrow(/MAIL_FROM is set but SMTP_URL is not/);
  });
});

describe('the mails', () => {
  const url = 'https://passage.example.org';
  it('builds links from PUBLIC_URL and escapes the HTML part', () => {
    const reset = resetMail('a@example.org', 'YUBleGFtcGxlLm9yZw.tok<en>', 30, url);
    expect(reset.text).toContain(`${url}/login?reset_token=YUBleGFtcGxlLm9yZw.tok%3Cen%3E`);
    expect(reset.html).not.toContain('<en>');
    expect(reset.text).toContain('expires in 30 minutes');
    expect(inviteMail('b@example.org', 't.k', 7 * 1440, url, 'Ada <Admin>').html).toContain('Ada &lt;Admin&gt; invited you');
    expect(inviteMail('b@example.org', 't.k', 7 * 1440, url, null).text).toContain('An administrator invited you to Passage');
    expect(otpMail('c@example.org', '012345', 10, url).text).toContain('Your verification code is 012345.');
  });

  it('marks a demo mail as not sent', async () => {
    const lines: string[] = [];
    await createMailer({ mode: 'console' }, (l) => lines.push(l)).send!(otpMail('c@example.org', '012345', 10, url));
    expect(lines[0]).toMatch(/^\(demo: this mail was not sent\) To: c@example.org · Subject: Your Passage verification code/);
    expect(createMailer({ mode: 'off' }, () => {}).send).toBeNull();
  });

  it('keeps addresses and server replies out of what a log may hold', () => {
    expect(maskAddress('someone@academy.example.org')).toBe('s***@academy.example.org');
    expect(maskAddress('nonsense')).toBe('***');
    const refused = Object.assign(new Error('Can\'t send mail - all recipients were rejected: 550 <someone@academy.example.org>: no such user'), {
      code: 'EENVELOPE',
      command: 'RCPT TO',
      responseCode: 550,
    });
    expect(mailErrorSummary(refused)).toBe('EENVELOPE RCPT TO 550');
  });
});
