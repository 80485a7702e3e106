import { describe, expect, it } from 'vitest';
import { buildCohorts, buildEnrollments, buildParticipants, cohortCode } from '../../../server/demo/builders';
import { createRng, dayOffset } from '../../../server/demo/random';
import type { EntityRecord } from '../../../server/store/types';

const now = new Date('2026-03-10T12:00:00Z');
const withIds = (rows: Record<string, unknown>[], prefix: string) => rows.map((r, i) => ({ ...r, id: `${prefix}${i}` }) as EntityRecord);

describe('demo builders', () => {
  it('builds cohort codes by the rule of spec.md 5', () => {
    expect(cohortCode('Construction Pre-Apprenticeship', 'Folsom State Prison', '2025-02-01')).toBe('CP-FSP-2025Q1');
    expect(cohortCode('Digital Skills and Career Readiness', 'Oakland Reentry Center', '2026-10-15')).toBe('DSA-ORC-2026Q4');
  });

  it('is deterministic for a seed', () => {
    expect(buildParticipants(createRng(7), now)).toEqual(buildParticipants(createRng(7), now));
    expect(buildParticipants(createRng(7), now)).not.toEqual(buildParticipants(createRng(8), now));
  });

  it('covers the states the screens need', () => {
    const participants = buildParticipants(createRng(2026), now);
    expect(participants).toHaveLength(40);
    expect(participants[0].academy_uid).toBe('RA-2026-0001');
    expect(new Set(participants.map((p) => p.custody_status))).toEqual(new Set(['in-custody', 'released']));
    expect(new Set(participants.map((p) => p.program_status))).toEqual(new Set(['active', 'completed', 'on_hold', 'withdrawn']));
    const soon = participants.filter(
      (p) => p.custody_status === 'in-custody' && String(p.projected_release_date) <= dayOffset(now, 60) && String(p.projected_release_date) >= dayOffset(now, 0),
    );
    expect(soon.length).toBeGreaterThanOrEqual(3);

    const programs = withIds([{ program_name: 'A B' }, { program_name: 'C D' }, { program_name: 'E F' }], 'p');
    const sites = withIds([{ site_name: 'S1' }, { site_name: 'S2' }, { site_name: 'S3' }, { site_name: 'S4' }], 's');
    const cohorts = withIds(buildCohorts(createRng(1), now, programs, sites), 'c');
    expect(new Set(cohorts.map((c) => c.status))).toEqual(new Set(['planned', 'active', 'completed']));
    const enrollments = buildEnrollments(createRng(1), withIds(participants, 'x'), cohorts);
    expect(new Set(enrollments.map((e) => e.enrollment_status))).toEqual(new Set(['active', 'waitlist', 'withdrawn', 'graduated']));
  });
});
