/**
 * Issue #25.6: the deployment example (deploy/) and guide (docs/deploy.md) as an operator would
 * check them before `docker compose up`: the compose file parses and gives each app instance every
 * setting the server needs for a production start behind the proxy; TRUST_PROXY trusts exactly the
 * proxy; the proxy configs balance over both instances, check /readyz and pass event streams
 * unbuffered; every variable the server reads is documented; README links the guide. (No Docker
 * or Caddy on the test machine: syntax is checked by parsing, not by running them.)
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseTrustProxy } from '../../../server/http/trust-proxy';

const ROOT = resolve(import.meta.dirname, '../../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

type Service = { environment?: Record<string, string>; image?: string; networks?: unknown; stop_grace_period?: string; healthcheck?: { test: string[] }; depends_on?: unknown };
const compose = parse(read('deploy/compose.yaml'), { merge: true }) as { services: Record<string, Service>; networks: Record<string, { ipam: { config: Array<{ subnet: string }> } }> };
const apps = Object.entries(compose.services).filter(([, s]) => s.image === 'passage:latest');

/** `{ open … }` blocks balance, ignoring comments. */
function balanced(text: string, comment: string): boolean {
  let depth = 0;
  for (const line of text.split('\n')) {
    const code = line.split(comment)[0];
    for (const ch of code) {
      if (ch === '{') depth++;
      if (ch === '}') depth--;
      if (depth < 0) return false;
    }
  }
  return depth === 0;
}

describe('deploy/compose.yaml', () => {
  it('runs PostgreSQL 15, two app instances and a proxy', () => {
    expect(compose.services.db.environment?.POSTGRES_DB).toBe('passage');
    expect((compose.services.db as { image?: string }).image).toBe('postgres:15');
    expect(apps.map(([name]) => name)).toEqual(['app1', 'app2']);
    expect(compose.services.proxy).toBeDefined();
  });

  it('gives every instance the settings of a production start on the shared database', () => {
    for (const [name, app] of apps) {
      const env = app.environment!;
      expect(env.HOST, name).toBe('0.0.0.0');
      expect(env.DEMO, name).toBe('0');
      expect(env.PUBLIC_URL, name).toMatch(/^https:\/\//);
      expect(env.DATABASE_URL, name).toMatch(/^postgres:\/\/passage:\$\{POSTGRES_PASSWORD[^}]*\}@db:5432\/passage$/);
      for (const key of ['JWT_SECRET', 'SMTP_URL', 'MAIL_FROM']) expect(env[key], `${name} ${key}`).toMatch(new RegExp(`^\\$\\{${key}:\\?`));
      expect(Number(env.DATABASE_POOL_SIZE) * apps.length, 'pool sizes stay well under max_connections=100').toBeLessThanOrEqual(80);
      expect(env.LOG_FORMAT).toBe('json');
      // Docker's SIGKILL comes after the server's own 8 s bound.
      expect(parseInt(app.stop_grace_period ?? '10s', 10)).toBeGreaterThanOrEqual(10);
      expect(app.healthcheck?.test.join(' ')).toContain('/healthz');
    }
  });

  it('trusts exactly the proxy to name clients (TRUST_PROXY), not the other containers', () => {
    const proxyAddress = (compose.services.proxy.networks as Record<string, { ipv4_address: string }>).passage.ipv4_address;
    expect(compose.networks.passage.ipam.config[0].subnet).toBe('172.28.0.0/24');
    for (const [, app] of apps) {
      const trust = parseTrustProxy(app.environment!.TRUST_PROXY)!;
      expect(trust(proxyAddress, 0)).toBe(true);
      expect(trust('172.28.0.11', 0)).toBe(false);
    }
  });

  it('every ${VARIABLE} it uses is in deploy/env.example', () => {
    const used = new Set([...read('deploy/compose.yaml').matchAll(/\$\{([A-Z_]+)/g)].map((m) => m[1]));
    const example = new Set([...read('deploy/env.example').matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]));
    expect([...used].sort()).toEqual([...example].sort());
  });
});

describe('proxy configurations', () => {
  it('Caddyfile: balances over both instances, checks /readyz, streams unbuffered', () => {
    const caddy = read('deploy/Caddyfile');
    expect(balanced(caddy, '#')).toBe(true);
    const upstreams = caddy.match(/reverse_proxy ([^{]+)\{/)![1].trim().split(/\s+/);
    expect(upstreams).toEqual(apps.map(([name, app]) => `${name}:${app.environment!.PORT}`));
    expect(caddy).toMatch(/^\s*health_uri \/readyz$/m);
    expect(caddy).toMatch(/^\s*flush_interval -1$/m);
    expect(caddy).toMatch(/^\s*lb_try_duration \d+s$/m);
  });

  it('nginx.conf: statements end with ;, blocks balance, the event stream path is not buffered', () => {
    const nginx = read('deploy/nginx.conf');
    expect(balanced(nginx, '#')).toBe(true);
    for (const raw of nginx.split('\n')) {
      const line = raw.split('#')[0].trim();
      if (!line || line.endsWith('{') || line === '}') continue;
      expect(line, 'every nginx directive ends with ;').toMatch(/;$/);
    }
    const events = nginx.slice(nginx.indexOf('location ~ ^/api/apps/[^/]+/events$'));
    expect(events).toMatch(/proxy_buffering off;/);
    const readTimeout = events.match(/proxy_read_timeout (\d+)([smh]);/)!;
    const seconds = Number(readTimeout[1]) * { s: 1, m: 60, h: 3600 }[readTimeout[2] as 's' | 'm' | 'h'];
    expect(seconds, 'longer than the 25 s keep-alive of the event stream').toBeGreaterThan(25);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });
});

describe('docs/deploy.md', () => {
  it('documents every environment variable the server reads, and README links it', () => {
    const guide = read('docs/deploy.md');
    const sources = ['server/main.ts', 'server/device-policy.ts', ...readdirSync(join(ROOT, 'server/mail')).map((f) => `server/mail/${f}`)];
    const names = new Set(sources.flatMap((f) => [...read(f).matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1])));
    expect(names.size).toBeGreaterThan(15);
    for (const name of names) expect(guide, name).toContain(`\`${name}\``);
    expect(read('README.md')).toContain('docs/deploy.md');
    for (const command of ['npm run admin:create', 'npm run backup', 'npm run restore', 'pg_dump -Fc', 'pg_restore']) expect(guide).toContain(command);
  });
});

describe('deploy/Dockerfile', () => {
  it('builds the server bundle that scripts/build-server.mjs makes and runs it, as npm start does', async () => {
    const { SERVER_BUNDLE } = await import('../../../scripts/build-server.mjs');
    const bundle = SERVER_BUNDLE.slice(ROOT.length + 1);
    const docker = read('deploy/Dockerfile');
    const run = docker.split('\n').filter((l) => l.startsWith('RUN '));
    const cmd = docker.split('\n').find((l) => l.startsWith('CMD '))!;
    // The bundle is built after the sources are copied in, and it is what the container runs.
    expect(docker.indexOf('COPY . .')).toBeLessThan(docker.indexOf('node scripts/build-server.mjs'));
    expect(run.join('\n')).toContain('node scripts/build-server.mjs');
    expect(JSON.parse(cmd.slice(4))).toEqual(['node', bundle]);
    expect(read('scripts/start.mjs')).toMatch(/spawn\(process\.execPath, \[await buildServer\(\)\]/);
    expect(read('.gitignore').split('\n')).toContain(`/${bundle.split('/')[0]}`);
  });

  it('the operator commands the guide names run as bundles, and the image builds them', async () => {
    const { COMMANDS } = await import('../../../scripts/build-server.mjs');
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const [script, name] of [['admin:create', 'admin-create'], ['backup', 'backup'], ['restore', 'restore'], ['audit:verify', 'audit-verify']] as const) {
      expect(scripts[script], script).toBe(`node scripts/command.mjs ${name}`);
      expect(readdirSync(join(ROOT, 'scripts')), COMMANDS[name]).toContain(COMMANDS[name].replace('scripts/', ''));
    }
    // `node scripts/build-server.mjs` (the image's RUN) builds every command with the server.
    expect(read('scripts/build-server.mjs')).toMatch(/Promise\.all\(\[buildServer\(\), \.\.\.Object\.keys\(COMMANDS\)\.map\(buildCommand\)\]\)/);
  });
});
