import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/processes';
import { DEMO, DEMO_PASSWORD, TEST_PIN, lightPin, passDeviceLock, setupHarness, tokenOf } from './harness';
import { coachParticipants, eventually, fullName, serverRows, syncStatusRow, type Row } from './offline-world';

/**
 * Issue #21 in Chromium against the real server, tried as a thief, a curious colleague and a
 * forensic examiner would: every way around the PIN that was seen on the old main, now closed.
 * IndexedDB, storage and the profile on disk are read directly, never through the app.
 */
const h = setupHarness({ serviceWorkers: 'block' });

async function lockScreen(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Passage is locked' }).waitFor({ timeout: 30_000 });
}

async function wrongPin(page: Page, left: number): Promise<void> {
  await page.getByLabel('PIN', { exact: true }).fill('00000000');
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.getByText(`Wrong PIN. ${left} tries left.`).waitFor({ timeout: 30_000 });
}

/** A token of `email` from the JSON sign-in (what a colleague with the password could get). */
async function jsonToken(email: string): Promise<string> {
  const res = await fetch(`${h().baseUrl}/api/apps/passage/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Records the token the app got from its code exchange (the response, as a proxy would see it). */
function captureAppToken(page: Page): () => string | null {
  let token: string | null = null;
  page.on('response', async (res) => {
    if (!res.url().endsWith('/auth/exchange') || res.status() !== 200) return;
    token = ((await res.json().catch(() => ({}))) as { access_token?: string }).access_token ?? null;
  });
  return () => token;
}

async function aParticipant(page: Page): Promise<Row> {
  const rows = await coachParticipants(h().baseUrl, tokenOf(page));
  // A name no one else in the academy has: the search finds exactly this person.
  const everyone = await serverRows(h().baseUrl, tokenOf(page), 'Participant', {}, 5000);
  const unique = (r: Row) => everyone.filter((o) => fullName(o) === fullName(r)).length === 1;
  const p = rows.find((r) => r.cdcr_number && r.first_name && r.last_name && String(r.last_name).length >= 5 && unique(r));
  if (!p) throw new Error('the demo seed has no participant with a prison number');
  return p;
}

/** What web storage, cookies and history state of the page hold, as one string. */
async function storageText(page: Page): Promise<string> {
  const inPage = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, state: history.state, title: document.title }));
  const cookies = JSON.stringify(await page.context().cookies());
  return inPage + cookies;
}

/** The vault record as IndexedDB holds it (read directly, not through the app). */
async function vaultRecord(page: Page): Promise<{ failed_attempts: number; pin: { prf?: unknown } | null }> {
  return page.evaluate(async () => {
    const db: IDBDatabase = await new Promise((resolve, reject) => {
      const req = indexedDB.open('passage');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const row = await new Promise<{ value: never }>((resolve) => {
      const r = db.transaction('meta').objectStore('meta').get('vault');
      r.onsuccess = () => resolve(r.result);
    });
    db.close();
    return row.value;
  });
}

describe('a locked or freshly started tablet (issue #21.1, .3)', () => {
  it('an address with an empty or a real access_token shows the lock screen and keeps the wrong-PIN count', async () => {
    const page = await h().newPage({ viewport: { width: 1024, height: 768 } });
    await h().signIn(page, DEMO.coach);
    await page.getByRole('button', { name: 'Lock' }).click();
    await lockScreen(page);
    for (const left of [9, 8, 7]) await wrongPin(page, left);

    await page.goto(`${h().baseUrl}/participants?access_token=`);
    await lockScreen(page);
    expect(new URL(page.url()).search).not.toContain('access_token');
    await wrongPin(page, 6);

    const real = await jsonToken(DEMO.coach);
    await page.goto(`${h().baseUrl}/participants?access_token=${real}`);
    await lockScreen(page);
    expect(await page.getByRole('heading', { name: 'Participants' }).count()).toBe(0);
    await wrongPin(page, 5);
    // Nothing of it was kept: the token is in no storage of the page.
    expect(await storageText(page)).not.toContain(real);
  });

  it('no stored string opens anything: every value in storage, replayed as a token, is refused by deviceKey and the entity API', async () => {
    const page = await h().newPage({ viewport: { width: 1024, height: 768 } });
    const appToken = captureAppToken(page);
    await h().signIn(page, DEMO.coach);
    expect(appToken()).toMatch(/^ey/);
    await page.getByRole('button', { name: 'Lock' }).click();
    await lockScreen(page);

    const stored = await page.evaluate(() => [...Object.values(localStorage), ...Object.values(sessionStorage)]);
    const cookies = (await page.context().cookies()).map((c) => c.value);
    const candidates = [...stored, ...cookies].flatMap((v) => [v, ...String(v).split(/[^A-Za-z0-9._-]+/)]).filter((v) => v.length > 20);
    expect(await storageText(page)).not.toContain(appToken()!);
    for (const candidate of candidates) {
      for (const [method, path] of [
        ['GET', '/api/apps/passage/entities/Participant?limit=1'],
        ['POST', '/api/apps/passage/functions/deviceKey'],
      ] as const) {
        const res = await fetch(`${h().baseUrl}${path}`, {
          method,
          headers: { Authorization: `Bearer ${candidate}`, 'Content-Type': 'application/json', 'X-App-Id': 'passage' },
          body: method === 'POST' ? JSON.stringify({ device_id: 'AAAAAAAAAAAAAAAAAAAAAA' }) : undefined,
        });
        expect(res.status, `${candidate.slice(0, 12)}… on ${path}`).toBeGreaterThanOrEqual(400);
      }
    }
  });

  it('a tab closed without Lock and opened again online asks for the PIN', async () => {
    const page = await h().newPage({ viewport: { width: 768, height: 1024 } });
    await h().signIn(page, DEMO.coach);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const context = page.context();
    await page.close();
    const again = await context.newPage();
    await again.goto(`${h().baseUrl}/participants`);
    await lockScreen(again);
    expect(await again.getByRole('heading', { name: 'Participants' }).count()).toBe(0);
    expect(await passDeviceLock(again)).toBe('unlock');
    await again.getByRole('heading', { name: 'Participants' }).waitFor();
  });

  it('two tabs trying PINs at once each count: the count is written under one lock', async () => {
    // The shipped derivation (about 1 s): the two tries overlap as they do on a tablet.
    const page = await h().newPage({ viewport: { width: 1024, height: 768 }, pin: 'production' });
    await h().signIn(page, DEMO.coach);
    const second = await page.context().newPage();
    await second.goto(`${h().baseUrl}/`);
    await lockScreen(second);
    await page.reload();
    await lockScreen(page);
    for (const p of [page, second]) await p.getByLabel('PIN', { exact: true }).fill('00000000');
    await Promise.all([page, second].map((p) => p.getByRole('button', { name: 'Unlock' }).click()));
    await Promise.all([page, second].map((p) => p.getByText(/Wrong PIN\. \d tries left\./).waitFor({ timeout: 30_000 })));
    expect((await vaultRecord(page)).failed_attempts).toBe(2);
    await page.reload();
    await lockScreen(page);
    await wrongPin(page, 7);
  });
});

describe('the server key (issue #21.2)', () => {
  it('is refused to pending and rejected accounts, even on a fresh sign-in', async () => {
    for (const email of [DEMO.pending, DEMO.rejected]) {
      const token = await jsonToken(email);
      const res = await fetch(`${h().baseUrl}/api/apps/passage/functions/deviceKey`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'X-App-Id': 'passage' },
        body: JSON.stringify({ device_id: `dev-${email.split('@')[0]}-0000000000` }),
      });
      expect(res.status, email).toBe(403);
      expect(JSON.stringify(await res.json())).not.toMatch(/"key"/);
    }
  });

  it('an administrator revokes a coach: the open tablet hears it on its change stream, erases its copy and says why', async () => {
    const coach = await h().newPage({ viewport: { width: 1024, height: 768 } });
    await h().signIn(coach, DEMO.coach);
    await coach.getByRole('heading', { name: 'Dashboard' }).waitFor();

    const admin = await h().newPage({ viewport: { width: 1440, height: 900 } });
    await h().signIn(admin, DEMO.admin);
    await h().open(admin, '/adminapprovals');
    await admin.getByRole('heading', { name: 'Signed-in tablets' }).waitFor();
    await admin.getByRole('button', { name: "Revoke all of this coach's tablets" }).first().waitFor({ timeout: 30_000 });
    const cards = admin.locator('section').filter({ hasText: 'Signed-in tablets' });
    const coachCard = cards.locator('*').filter({ hasText: DEMO.coach }).filter({ has: admin.getByRole('button', { name: "Revoke all of this coach's tablets" }) }).last();
    await coachCard.getByRole('button', { name: "Revoke all of this coach's tablets" }).click();
    await admin.getByLabel('Reason (shown on the tablet)').fill('Tablet reported lost at Valley State');
    await admin.getByRole('button', { name: 'Revoke all tablets' }).click();
    await admin.getByText(/tablets revoked/).waitFor();

    // The open tablet holds the change stream (S18): told at once, it asks deviceStatus and erases,
    // with no reload and no minute's wait.
    await coach.getByRole('heading', { name: 'This tablet was signed out' }).waitFor({ timeout: 30_000 });
    await coach.getByText('Tablet reported lost at Valley State').waitFor();
    // The database itself was deleted (an empty one may be open again for the signed-out shell).
    const participants = await coach.evaluate(async () => {
      const db: IDBDatabase = await new Promise((resolve, reject) => {
        const req = indexedDB.open('passage');
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      if (!db.objectStoreNames.contains('participants')) return 0;
      const n = await new Promise<number>((resolve) => {
        const r = db.transaction('participants').objectStore('participants').count();
        r.onsuccess = () => resolve(r.result);
      });
      db.close();
      return n;
    });
    expect(participants).toBe(0);
    expect(await coach.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('academy_') || (k.startsWith('passage_') && k !== 'passage_end_sessions')))).toEqual([]);
  });
});

describe('rows bound to their place (issue #21.5)', () => {
  it('a swapped seal does not open on another participant, and planted rows and ops are not read or sent', async () => {
    const page = await h().newPage({ viewport: { width: 1440, height: 900 } });
    await h().signIn(page, DEMO.coach);
    await h().open(page, '/participants');
    const rows = await coachParticipants(h().baseUrl, tokenOf(page));
    const named = rows.filter((r) => r.first_name && r.last_name);
    const a = named[0];
    const b = named.find((r) => r.last_name !== a.last_name && r.first_name !== a.first_name)!;
    await page.getByLabel('Search participants').fill(String(a.last_name));
    await page.getByText(fullName(a)).first().waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Lock' }).click();
    await lockScreen(page);

    const me = (await (await fetch(`${h().baseUrl}/api/apps/passage/entities/User/me`, { headers: { Authorization: `Bearer ${tokenOf(page)}` } })).json()) as { id: string };
    await page.evaluate(
      async (ids) => {
        const db: IDBDatabase = await new Promise((resolve, reject) => {
          const req = indexedDB.open('passage');
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction(['participants', 'outbox'], 'readwrite');
          const store = tx.objectStore('participants');
          const ra = store.get(ids.a);
          const rb = store.get(ids.b);
          store.put({ id: 'planted-1', first_name: 'Planted', last_name: 'Intruderson', custody_status: 'released', program_status: 'active' });
          tx.objectStore('outbox').add({
            entity: 'Participant',
            record_id: 'planted-2',
            kind: 'create',
            data: { first_name: 'Queued', last_name: 'Intruderson' },
            client_ref: '11111111-2222-4333-8444-555555555555',
            state: 'pending',
            attempts: 0,
            next_attempt_at: 0,
            user_id: ids.user,
            created_at: Date.now(),
          });
          rb.onsuccess = () => store.put({ ...ra.result, _enc: rb.result._enc });
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        db.close();
      },
      { a: a.id, b: b.id, user: me.id },
    );

    await passDeviceLock(page);
    const unlockedAt = await page.evaluate(() => Date.now());
    await h().goto(page, `/participantdetail?id=${a.id}`);
    // The page has settled on what it shows for a (a's profile, or that it cannot): never b's.
    await page
      .getByRole('button', { name: 'Edit Profile' })
      .or(page.getByText('Participant not found'))
      .or(page.getByText('This participant is not on this tablet', { exact: false }))
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await page.getByText(String(b.last_name), { exact: false }).count()).toBe(0);
    await h().open(page, '/participants');
    await page.getByLabel('Search participants').fill('Intruderson');
    await page.getByText('No participants found').waitFor({ timeout: 30_000 });
    expect(await page.getByText('Intruderson').count()).toBe(0);
    // Sync ran (unlock starts it) to its end, the push included: the planted op reached nothing on the server.
    await eventually(async () => (await syncStatusRow(page))?.lastSyncedAt ?? 0, 30_000).toBeGreaterThan(unlockedAt);
    const server = await serverRows(h().baseUrl, tokenOf(page), 'Participant', { last_name: 'Intruderson' });
    expect(server).toEqual([]);
  });
});

describe('the profile on disk (issue #21.6)', () => {
  it('holds no searched name, prison number or token anywhere after a session of work', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'passage-profile-'));
    let context: BrowserContext | null = null;
    try {
      context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, viewport: { width: 1024, height: 768 }, baseURL: h().baseUrl });
      await lightPin(context);
      const page = context.pages()[0] ?? (await context.newPage());
      const appToken = captureAppToken(page);
      await h().signIn(page, DEMO.coach);
      const p = await aParticipant(page);
      await h().open(page, '/participants');
      await page.getByLabel('Search participants').fill(String(p.last_name));
      await page.getByText(fullName(p)).first().click();
      await page.getByText(String(p.cdcr_number)).first().waitFor({ timeout: 30_000 });
      expect(page.url()).not.toContain(String(p.last_name));
      await page.goBack();
      await page.getByRole('button', { name: 'Lock' }).click();
      await lockScreen(page);
      await context.close();
      context = null;

      const secrets = [String(p.last_name), String(p.cdcr_number), appToken()!];
      expect(appToken()).toMatch(/^ey/);
      const found: string[] = [];
      const walk = (path: string) => {
        for (const name of readdirSync(path)) {
          const file = join(path, name);
          const st = statSync(file, { throwIfNoEntry: false });
          if (!st) continue;
          if (st.isDirectory()) walk(file);
          else if (st.isFile() && st.size < 64 * 1024 * 1024) {
            const bytes = readFileSync(file);
            for (const secret of secrets) {
              // As written (UTF-8) and as Chromium writes some strings (UTF-16LE).
              if (bytes.includes(Buffer.from(secret, 'utf8')) || bytes.includes(Buffer.from(secret, 'utf16le'))) found.push(`${secret.slice(0, 12)} in ${file.slice(dir.length)}`);
            }
          }
        }
      };
      walk(dir);
      expect(found).toEqual([]);
    } finally {
      await context?.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the authenticator as a second factor (issue #21.4)', () => {
  it('a PIN chosen with the tablet’s authenticator opens only with it (Chromium’s virtual authenticator with PRF)', async () => {
    const page = await h().newPage({ viewport: { width: 768, height: 1024 } });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, hasPrf: true, automaticPresenceSimulation: true },
    });

    // WebAuthn needs a domain, not an IP address: this tablet opens Passage as localhost.
    const origin = h().baseUrl.replace('127.0.0.1', 'localhost');
    await page.goto(`${origin}/login?from_url=${encodeURIComponent(`${origin}/`)}`);
    await page.getByLabel('Email').fill(DEMO.coach);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set a PIN for this tablet' }).waitFor({ timeout: 30_000 });
    const factor = page.getByLabel("Also require this tablet's fingerprint, face or screen lock");
    await factor.waitFor();
    await factor.check();
    await page.getByLabel('PIN', { exact: true }).fill(TEST_PIN);
    await page.getByLabel('Confirm PIN').fill(TEST_PIN);
    await page.getByRole('button', { name: 'Save PIN' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    expect((await vaultRecord(page)).pin?.prf).toBeTruthy();

    // With the authenticator: the PIN opens it.
    await page.reload();
    await lockScreen(page);
    expect(await passDeviceLock(page)).toBe('unlock');

    // Without it (a copy of the profile on another machine, whose authenticator never held the
    // credential): the right PIN opens nothing. With no authenticator at all the browser refuses
    // the same way, only after the request's 60 s timeout (src/data/vault/webauthn-prf.ts).
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    await page.reload();
    await lockScreen(page);
    await page.getByLabel('PIN', { exact: true }).fill(TEST_PIN);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByText("This tablet's fingerprint, face or screen lock did not answer. Enter the PIN and try again.").waitFor({ timeout: 30_000 });
    expect(await page.getByRole('heading', { name: 'Dashboard' }).count()).toBe(0);
  });
});
