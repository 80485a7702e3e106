/** `npm run admin:create` as a child process, for admin-create.test.ts and shared-secret-postgres.test.ts. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { operatorCommand } from '../../support/processes';

/** Clears what could leak in from the test runner's environment. */
export const CLEAN_ENV = { DEMO: '', JWT_SECRET: '', DATABASE_URL: '', SMTP_URL: '', MAIL_FROM: '', APP_ID: '', PUBLIC_URL: '' };

export async function adminCreate(env: Record<string, string>, args: string[], stdin?: string): Promise<{ code: number | null; out: string }> {
  const command = await operatorCommand('admin-create');
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [command, ...args], {
      cwd: resolve(import.meta.dirname, '../../..'),
      env: { ...process.env, ...CLEAN_ENV, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', rej);
    child.on('exit', (code) => res({ code, out }));
    child.stdin.end(stdin ?? '');
  });
}

export function linkIn(out: string): string {
  const link = /(http\S+\/login\?reset_token=\S+)/.exec(out)?.[1];
  if (!link) throw new Error(`no link in:\n${out}`);
  return link;
}

