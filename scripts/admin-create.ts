/**
 * npm run admin:create -- --email someone@academy.org [--name "Full Name"] [--password-stdin]
 *
 * Creates an approved administrator, or promotes an existing account, in the database the server
 * uses: the same environment as `npm start` (DATA_DIR or DATABASE_URL, APP_ID, JWT_SECRET,
 * PUBLIC_URL, SMTP_URL, MAIL_FROM). The person then sets a password with a one-time link, mailed
 * when SMTP is set up and printed here otherwise, or the password is read from standard input
 * (`--password-stdin`, e.g. `printf '%s' "$PW" | npm run admin:create -- --email … --password-stdin`).
 *
 * With the embedded database (no DATABASE_URL) the server must be stopped first: PGlite allows one
 * process per data directory, and this command says so rather than waiting. On PostgreSQL it runs
 * while servers run.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_APP_ID } from '../shared/config';
import { createAdministrator } from '../server/auth/admin-create';
import { serverSecret } from '../server/auth/server-secret';
import { HttpError } from '../server/errors';
import { createMailer, mailSetupFromEnv } from '../server/mail/mailer';
import { createStore } from '../server/store/index';

const USAGE = 'Usage: npm run admin:create -- --email someone@academy.org [--name "Full Name"] [--password-stdin]';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' }, 'password-stdin': { type: 'boolean' }, help: { type: 'boolean' } } }).values;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (!args.email) {
    console.error(`--email is required.\n${USAGE}`);
    return 2;
  }
  const env = process.env;
  const dataDir = resolve(env.DATA_DIR || './data');
  const databaseUrl = env.DATABASE_URL || undefined;
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${env.PORT || 4173}`).replace(/\/+$/, '');
  const password = args['password-stdin'] ? await readStdin() : undefined;
  // Mail only through SMTP here: without it the link is printed below, for the operator.
  const mailer = createMailer(mailSetupFromEnv(env, false), () => {});

  const secret = await serverSecret({ jwtSecret: env.JWT_SECRET || undefined, databaseUrl, dataDir, log: (line) => console.log(line) });
  let store;
  try {
    store = await createStore({ dataDir, databaseUrl });
  } catch (err) {
    if (!databaseUrl && /in use by process (\d+)/.test((err as Error).message)) {
      const pid = /in use by process (\d+)/.exec((err as Error).message)![1];
      console.error(
        `A Passage server (process ${pid}) is running on ${dataDir}. The embedded database allows one process at a time:\n` +
          'stop the server, run npm run admin:create again, then start the server.',
      );
      return 1;
    }
    throw err;
  }
  try {
    const result = await createAdministrator({ store, appId: env.APP_ID || DEFAULT_APP_ID, secret, publicUrl, sendMail: mailer.send, email: args.email, name: args.name, password });
    for (const line of result.lines) console.log(line);
    return 0;
  } catch (err) {
    if (err instanceof HttpError && err.status < 500) {
      console.error(err.message);
      return 2;
    }
    throw err;
  } finally {
    mailer.close();
    await store.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('admin:create failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
