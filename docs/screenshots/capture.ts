/**
 * Takes the README's screenshots (1024×768) against the real server and the built app:
 *   npx vite build && npx tsx docs/screenshots/capture.ts
 * offline-participants.png — the Participants page with the connection cut and changes queued;
 * sync-page.png — the Sync page with a refused change, a conflict and changes waiting.
 */
import { join } from 'node:path';
import { startHarness, DEMO, DEMO_PASSWORD } from '../../test/e2e/harness';
import { addParticipant, editParticipantField, loginToken, outbox, serverRows, serverUpdate, serviceWorkerReady, syncStatusRow, tokenOf } from '../../test/e2e/offline-world';

const OUT = import.meta.dirname;

/** Polls until `ok` (vitest's expect.poll works only inside a test run). */
async function until(ok: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 250));
  }
}

const h = await startHarness();
try {
  const page = await h.newPage({ viewport: { width: 1024, height: 768 } });
  await h.signIn(page, DEMO.coach);
  await serviceWorkerReady(page);
  await until(async () => ((await syncStatusRow(page))?.lastSyncedAt ?? null) !== null);
  const token = await tokenOf(page);
  const admin = await loginToken(h.baseUrl, DEMO.admin, DEMO_PASSWORD);
  const [a, b] = await serverRows(h.baseUrl, token, 'Participant');

  // A conflict (admin and coach change one phone) and a refusal (a 70 KB address), synced.
  await page.context().setOffline(true);
  await editParticipantField(page, h.baseUrl, a.id, 'Phone', '(555) 000-1111');
  await editParticipantField(page, h.baseUrl, b.id, 'Current Address', 'x'.repeat(70_000));
  await serverUpdate(h.baseUrl, admin, 'Participant', a.id, { phone: '(555) 999-2222' });
  await page.context().setOffline(false);
  await until(async () => (await outbox(page)).filter((o) => o.state !== 'rejected').length === 0);

  // Then offline again, with new work queued.
  await page.context().setOffline(true);
  await addParticipant(page, h.baseUrl, 'Marisol', 'Quintana');
  await addParticipant(page, h.baseUrl, 'Dario', 'Whitfield');
  await page.reload();
  await page.locator('[data-app-ready]').first().waitFor();
  await page.getByText('Marisol Quintana').first().waitFor();
  await page.mouse.move(0, 767);
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(OUT, 'offline-participants.png') });

  await h.goto(page, '/sync');
  await page.getByRole('heading', { name: /^Conflicts/ }).waitFor();
  await page.waitForTimeout(800);
  await page.screenshot({ path: join(OUT, 'sync-page.png') });
  console.log('screenshots written to docs/screenshots/');
} finally {
  await h.stop();
}
