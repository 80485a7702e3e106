import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { db } from '../../../src/data/db';
import { ProgramDetailPage } from '../../../src/screens/program-detail/program-detail-page';
import { ADMIN, clearDb, renderPage } from '../render-page';
import { seedScope } from '../seed-tablet-scope';
import { seedProgramsAndSites } from './seed';

// Issue #22.4: ProgramDetail's cohorts and figures say what they cover on a tablet holding some sites.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(clearDb);
afterEach(cleanup);

const panel = (title: string | RegExp) => screen.getByRole('heading', { name: title }).parentElement!.parentElement!;
const stat = (scope: HTMLElement, label: string) => within(scope).getByText(label).nextSibling;

/** The tablet holds s1 only: pr1's cohorts c1 and c3 (c2 at s2 left the tablet with its enrollment). */
async function seedScoped() {
  await seedProgramsAndSites();
  await db.cohorts.delete('c2');
  await db.enrollments.delete('e4');
  await seedScope({ siteIds: ['s1'] });
}

describe('ProgramDetailPage on a tablet holding some sites (issue #22.4)', () => {
  it("the spec's headings and figures, each with what it covers beside it", async () => {
    await seedScoped();
    await renderPage(<ProgramDetailPage id="pr1" />, { at: 'ProgramDetail', id: 'pr1' });
    const cohorts = await screen.findByRole('heading', { name: 'Cohorts (2) at your 1 site' });
    expect(within(cohorts).getByTestId('scope-covers')).toHaveTextContent(/^at your 1 site$/);
    expect(within(panel(/^Cohorts \(2\)/)).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([
      '/cohortdetail?id=c1',
      '/cohortdetail?id=c3',
    ]);
    const stats = panel('Program Stats at your 1 site');
    expect(stat(stats, 'Total Cohorts')).toHaveTextContent('2');
    expect(stat(stats, 'Active Cohorts')).toHaveTextContent('1');
    expect(stat(stats, 'Total Sites')).toHaveTextContent('1');
    await waitFor(() => expect(stat(stats, 'Active Participants')).toHaveTextContent('2'));
    expect(within(stats).getByText('Stats are calculated automatically from cohort data')).toBeInTheDocument();
    expect(within(panel('Sites at your 1 site')).getByRole('link', { name: 'San Quentin' })).toHaveAttribute('href', '/sitedetail?id=s1');
    expect(within(panel('Coaches (2) at your 1 site')).getByText('lee@example.org')).toBeInTheDocument();
  });

  it('a program with no cohorts at the tablet\'s sites: empty on this tablet, not "yet"', async () => {
    await seedScoped();
    await db.programs.put({ id: 'pr3', program_name: 'Job Readiness', active: true });
    await seedScope({ siteIds: ['s1', 's3'] });
    await renderPage(<ProgramDetailPage id="pr3" />, { at: 'ProgramDetail', id: 'pr3' });
    expect(await screen.findByText('No cohorts for this program at your 2 sites on this tablet')).toBeInTheDocument();
    expect(screen.queryByText('No cohorts for this program yet')).not.toBeInTheDocument();
    expect(within(panel('Sites at your 2 sites')).getByText('None on this tablet')).toBeInTheDocument();
    expect(within(panel('Coaches (0) at your 2 sites')).getByText('None on this tablet')).toBeInTheDocument();
    expect(screen.queryByText('No sites yet')).not.toBeInTheDocument();
    expect(screen.queryByText('No coaches assigned yet')).not.toBeInTheDocument();
  });
});

describe('ProgramDetailPage on a tablet holding every site', () => {
  it("the spec's headings alone", async () => {
    await seedProgramsAndSites();
    await seedScope({ all: true, siteIds: ['s1', 's2', 's3'], userId: ADMIN.id });
    await renderPage(<ProgramDetailPage id="pr1" />, { at: 'ProgramDetail', id: 'pr1', user: ADMIN });
    expect(await screen.findByRole('heading', { name: 'Cohorts (3)' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Program Stats' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sites' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Coaches (2)' })).toBeInTheDocument();
    expect(screen.queryByTestId('scope-covers')).not.toBeInTheDocument();
  });

  it("an empty program keeps the spec's empty text", async () => {
    await seedProgramsAndSites();
    await db.programs.put({ id: 'pr3', program_name: 'Job Readiness', active: true });
    await seedScope({ all: true, siteIds: ['s1', 's2', 's3'], userId: ADMIN.id });
    await renderPage(<ProgramDetailPage id="pr3" />, { at: 'ProgramDetail', id: 'pr3', user: ADMIN });
    expect(await screen.findByText('No cohorts for this program yet')).toBeInTheDocument();
    expect(screen.getByText('No sites yet')).toBeInTheDocument();
    expect(screen.getByText('No coaches assigned yet')).toBeInTheDocument();
  });
});
