// @vitest-environment jsdom
/**
 * The login page's HTML in every state, checked with axe-core (labels, names, alerts) and for
 * escaping. jsdom computes no layout, so colour contrast is left to the e2e suite.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { renderLogin, type LoginView } from '../../../server/routes/login-page-html';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const VIEWS: LoginView[] = [
  { kind: 'signin' },
  { kind: 'signin', email: 'a@b.org', error: 'Invalid email or password' },
  { kind: 'register', error: 'Password must be at least 8 characters' },
  { kind: 'register' },
  { kind: 'otp', email: 'a@b.org', notice: 'We sent a code' },
  { kind: 'otp', email: 'a@b.org', error: 'That code is not correct' },
  { kind: 'reset-request' },
  { kind: 'reset', token: 'abc', notice: 'Check your email' },
];

async function violations(html: string) {
  document.open();
  document.write(html);
  document.close();
  if (!(window as any).axe) window.eval(axeSource);
  const result = await (window as any).axe.run(document, { rules: { 'color-contrast': { enabled: false } } });
  return result.violations.map((v: { id: string; nodes: unknown[] }) => `${v.id} (${v.nodes.length})`);
}

describe('login page HTML', () => {
  it.each(VIEWS.map((v) => [`${v.kind}${'error' in v && v.error ? ' with error' : ''}`, v] as const))('%s has no axe violations', async (_n, view) => {
    expect(await violations(renderLogin(view, '/cohorts'))).toEqual([]);
  });

  it('would notice an unlabelled input (the check itself works)', async () => {
    const broken = renderLogin({ kind: 'signin' }, '/').replace('<label for="email">Email</label>', '');
    expect(await violations(broken)).toContain('label (1)');
  });

  it('ties an error to the inputs and announces it', () => {
    const html = renderLogin({ kind: 'signin', error: 'Invalid email or password' }, '/');
    expect(html).toContain('<p class="error" id="form-error" role="alert">Invalid email or password</p>');
    expect(html).toMatch(/id="email"[^>]*aria-invalid="true" aria-describedby="form-error"/);
  });

  it('escapes everything it echoes', () => {
    const html = renderLogin({ kind: 'otp', email: '<img src=x onerror=alert(1)>' }, '/x?"><script>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('"><script>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('carries the app\'s code_challenge through every form and link, like from_url (issue #21)', () => {
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    for (const view of VIEWS) {
      const html = renderLogin(view, '/cohorts', challenge);
      const forms = html.match(/<form [^>]*>/g) ?? [];
      const hidden = html.match(/<input type="hidden" name="code_challenge" value="E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM">/g) ?? [];
      expect(hidden.length, view.kind).toBe(forms.length);
      for (const href of html.match(/href="\/login\?[^"]*"/g) ?? []) expect(href).toContain(`code_challenge=${challenge}&amp;code_challenge_method=S256`);
    }
    expect(renderLogin({ kind: 'signin' }, '/')).not.toContain('code_challenge');
  });
});
