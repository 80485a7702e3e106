import { db } from '../../../src/data/db';

/** A cohort with a mixed roster: 2 active, 1 withdrawn, 1 graduated; 4 sessions. */
export async function seedCohort() {
  await db.programs.put({ id: 'pr1', program_name: 'Financial Literacy', active: true });
  await db.sites.put({ id: 's1', site_name: 'San Quentin', site_type: 'prison', active: true });
  await db.cohorts.put({
    id: 'c1',
    program_id: 'pr1',
    site_id: 's1',
    cohort_code: 'FL-SQ-2025Q1',
    start_date: '2025-01-06',
    end_date: '2025-03-28',
    capacity: 12,
    status: 'active',
    lead_coach_email: 'lee@example.org',
    schedule_notes: 'Tuesdays 9am',
    updated_date: '2025-01-01T00:00:00.000Z',
  });
  await db.participants.bulkPut([
    { id: 'p1', first_name: 'Maria', last_name: 'Lopez', academy_uid: 'RA-001', custody_status: 'in-custody' },
    { id: 'p2', first_name: 'James', last_name: 'Mariano', academy_uid: 'RA-002', custody_status: 'released' },
    { id: 'p3', first_name: 'Marisol', last_name: 'Ortega', academy_uid: 'RA-003', custody_status: 'in-custody' },
    { id: 'p4', first_name: 'Ann', last_name: 'Smith', academy_uid: 'RA-004', custody_status: 'released' },
  ]);
  await db.enrollments.bulkPut([
    { id: 'e1', participant_id: 'p1', cohort_id: 'c1', intake_date: '2025-01-06', enrollment_status: 'active', updated_date: '2025-01-06T00:00:00.000Z' },
    { id: 'e2', participant_id: 'p4', cohort_id: 'c1', intake_date: '2025-01-06', enrollment_status: 'active' },
    { id: 'e3', participant_id: 'p3', cohort_id: 'c1', enrollment_status: 'withdrawn' },
    { id: 'e4', participant_id: 'p2', cohort_id: 'c1', enrollment_status: 'graduated' },
  ]);
  await db.sessions.bulkPut([
    { id: 'ss1', cohort_id: 'c1', session_number: 1, topic: 'Budgeting', scheduled_at: '2099-01-07T09:00:00' },
    { id: 'ss2', cohort_id: 'c1', session_number: 2, topic: 'Credit', scheduled_at: '2099-01-14T09:00:00' },
    { id: 'ss3', cohort_id: 'c1', session_number: 3, topic: 'Banking', scheduled_at: '2099-01-21T09:30:00' },
    { id: 'ss4', cohort_id: 'c1', session_number: 4, topic: 'Saving', scheduled_at: '2099-01-28T09:00:00' },
    { id: 'other', cohort_id: 'c2', session_number: 1, topic: 'Elsewhere', scheduled_at: '2099-01-01T09:00:00' },
  ]);
}
