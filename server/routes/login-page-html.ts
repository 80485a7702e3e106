/**
 * The sign-in page's HTML: plain forms (no script, so the strict CSP holds and it works on any
 * browser), labelled inputs, errors announced inline with role="alert" and tied to the inputs.
 */
import { PRODUCT } from '../../shared/config';

export type LoginView =
  | { kind: 'signin'; email?: string; error?: string; notice?: string }
  | { kind: 'register'; email?: string; fullName?: string; error?: string }
  | { kind: 'otp'; email: string; error?: string; notice?: string }
  | { kind: 'reset-request'; email?: string; error?: string }
  | { kind: 'reset'; token?: string; error?: string; notice?: string };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);
}

const STYLE = `
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;background:#f8fafc;color:#0f172a;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:2rem;width:100%;max-width:24rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:1.5rem;margin:0 0 .25rem}p.lead{color:#475569;margin:0 0 1.5rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{width:100%;box-sizing:border-box;padding:.6rem .75rem;border:1px solid #94a3b8;border-radius:8px;font-size:1rem}
input:focus{outline:3px solid #2563eb;outline-offset:1px}
button{margin-top:1.5rem;width:100%;padding:.7rem;border:0;border-radius:8px;background:#1d4ed8;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}
button.link{background:none;color:#1d4ed8;width:auto;padding:0;margin-top:1rem;text-decoration:underline;font-weight:400}
.error{background:#fef2f2;color:#991b1b;border:1px solid #fecaca;border-radius:8px;padding:.6rem .75rem;margin:1rem 0 0}
.notice{background:#eff6ff;color:#1e3a8a;border:1px solid #bfdbfe;border-radius:8px;padding:.6rem .75rem;margin:1rem 0 0}
nav{margin-top:1.5rem;display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}a{color:#1d4ed8}`;

function field(name: string, label: string, type: string, opts: { value?: string; autocomplete: string; error?: boolean; extra?: string }) {
  const value = opts.value ? ` value="${escapeHtml(opts.value)}"` : '';
  const invalid = opts.error ? ' aria-invalid="true" aria-describedby="form-error"' : '';
  return `<label for="${name}">${label}</label><input id="${name}" name="${name}" type="${type}" autocomplete="${opts.autocomplete}" required${value}${invalid}${opts.extra ?? ''}>`;
}

function messages(error?: string, notice?: string): string {
  return (
    (error ? `<p class="error" id="form-error" role="alert">${escapeHtml(error)}</p>` : '') +
    (notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : '')
  );
}

function page(title: string, lead: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="/icon.svg"><title>${escapeHtml(title)} · ${PRODUCT}</title><style>${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p class="lead">${escapeHtml(lead)}</p>${body}</main></body></html>`;
}

/**
 * `challenge`: the app's PKCE code_challenge (S256), carried through every form and link of the
 * page like from_url, so the one-time code of the final redirect is bound to it (issue #21).
 */
export function renderLogin(view: LoginView, fromUrl: string, challenge: string | null = null): string {
  const from =
    `<input type="hidden" name="from_url" value="${escapeHtml(fromUrl)}">` +
    (challenge ? `<input type="hidden" name="code_challenge" value="${escapeHtml(challenge)}">` : '');
  const q =
    `from_url=${encodeURIComponent(fromUrl)}` + (challenge ? `&code_challenge=${encodeURIComponent(challenge)}&code_challenge_method=S256` : '');
  switch (view.kind) {
    case 'signin':
      return page('Sign in', `Sign in to ${PRODUCT}`, `${messages(view.error, view.notice)}
<form method="post" action="/login" novalidate>${from}
${field('email', 'Email', 'email', { value: view.email, autocomplete: 'username', error: !!view.error })}
${field('password', 'Password', 'password', { autocomplete: 'current-password', error: !!view.error })}
<button type="submit">Sign in</button></form>
<nav><a href="/login?mode=register&amp;${escapeHtml(q)}">Create an account</a><a href="/login?mode=reset&amp;${escapeHtml(q)}">Forgot password?</a></nav>`);
    case 'register':
      return page('Create an account', 'We will email you a code to confirm your address.', `${messages(view.error)}
<form method="post" action="/login/register" novalidate>${from}
<label for="full_name">Full name</label><input id="full_name" name="full_name" type="text" autocomplete="name"${view.fullName ? ` value="${escapeHtml(view.fullName)}"` : ''}>
${field('email', 'Email', 'email', { value: view.email, autocomplete: 'email', error: !!view.error })}
${field('password', 'Password', 'password', { autocomplete: 'new-password', error: !!view.error, extra: view.error ? ' minlength="8"' : ' minlength="8" aria-describedby="password-hint"' })}
<p id="password-hint">At least 8 characters.</p>
<button type="submit">Create account</button></form>
<nav><a href="/login?${escapeHtml(q)}">Back to sign in</a></nav>`);
    case 'otp':
      return page('Check your email', `Enter the 6-digit code we sent to ${view.email}.`, `${messages(view.error, view.notice)}
<form method="post" action="/login/verify" novalidate>${from}<input type="hidden" name="email" value="${escapeHtml(view.email)}">
${field('otp_code', 'Verification code', 'text', { autocomplete: 'one-time-code', error: !!view.error, extra: ' inputmode="numeric" pattern="[0-9]{6}" maxlength="6"' })}
<button type="submit">Verify and sign in</button></form>
<form method="post" action="/login/resend">${from}<input type="hidden" name="email" value="${escapeHtml(view.email)}"><button type="submit" class="link">Send a new code</button></form>
<nav><a href="/login?${escapeHtml(q)}">Back to sign in</a></nav>`);
    case 'reset-request':
      return page('Reset your password', 'We will email you a reset code.', `${messages(view.error)}
<form method="post" action="/login/reset-request" novalidate>${from}
${field('email', 'Email', 'email', { value: view.email, autocomplete: 'email', error: !!view.error })}
<button type="submit">Send reset code</button></form>
<nav><a href="/login?${escapeHtml(q)}">Back to sign in</a></nav>`);
    case 'reset':
      return page('Choose a new password', 'Enter the reset code from your email and a new password.', `${messages(view.error, view.notice)}
<form method="post" action="/login/reset" novalidate>${from}
${field('reset_token', 'Reset code', 'text', { value: view.token, autocomplete: 'off', error: !!view.error })}
${field('new_password', 'New password', 'password', { autocomplete: 'new-password', error: !!view.error, extra: ' minlength="8"' })}
<button type="submit">Set password and sign in</button></form>
<nav><a href="/login?${escapeHtml(q)}">Back to sign in</a></nav>`);
    default: {
      const never: never = view;
      throw new Error(`unknown view ${JSON.stringify(never)}`);
    }
  }
}
