import { db } from '../../../src/data/db';
import type { Attendance, Enrollment, Participant } from '../../../shared/entities';

/**
 * A cohort led by the render-page COACH (coach@example.org), its session 3 (Jan 21, 2099, 9:30 AM)
 * and a roster: Maria Lopez and Ann Smith active; Marisol Ortega withdrawn, with a record at
 * session 3 from before she left; Tom Late enrolled after session 3 (Feb 1).
 */
export async function seedSession() {
  await db.sites.put({ id: 's1', site_name: 'San Quentin', site_type: 'prison', active: true });
  await db.users.put({ id: 'u-coach', email: 'coach@example.org', full_name: 'Casey Coach' });
  await db.cohorts.put({
    id: 'c1',
    program_id: 'pr1',
    site_id: 's1',
    cohort_code: 'FL-SQ-2025Q1',
    status: 'active',
    lead_coach_email: 'coach@example.org',
    support_coach_emails: ['sam@example.org'],
  });
  await db.participants.bulkPut([
    { id: 'p1', first_name: 'Maria', last_name: 'Lopez', academy_uid: 'RA-001' },
    { id: 'p3', first_name: 'Marisol', last_name: 'Ortega', academy_uid: 'RA-003' },
    { id: 'p4', first_name: 'Ann', last_name: 'Smith', academy_uid: 'RA-004' },
    { id: 'p5', first_name: 'Tom', last_name: 'Late', academy_uid: 'RA-005' },
  ]);
  await db.enrollments.bulkPut([
    { id: 'e1', participant_id: 'p1', cohort_id: 'c1', intake_date: '2099-01-06', enrollment_status: 'active' },
    { id: 'e3', participant_id: 'p3', cohort_id: 'c1', intake_date: '2099-01-06', enrollment_status: 'withdrawn' },
    { id: 'e4', participant_id: 'p4', cohort_id: 'c1', intake_date: '2099-01-06', enrollment_status: 'active' },
    { id: 'e5', participant_id: 'p5', cohort_id: 'c1', intake_date: '2099-02-01', enrollment_status: 'active' },
  ]);
  await db.sessions.put({ id: 'ss3', cohort_id: 'c1', session_number: 3, topic: 'Banking', scheduled_at: '2099-01-21T09:30:00' });
  await db.attendance.put({
    id: 'a-old',
    session_id: 'ss3',
    cohort_id: 'c1',
    participant_id: 'p3',
    status: 'late',
    note: 'Bus was late',
    recorded_at: '2099-01-21T09:50:00.000Z',
  });
}

/** A session of its own with `n` active participants ('Person 01' … ), led by the COACH. */
export async function seedBigRoster(n: number) {
  await db.cohorts.put({ id: 'c30', program_id: 'pr1', site_id: 's1', cohort_code: 'BIG-2099Q1', status: 'active', lead_coach_email: 'coach@example.org' });
  await db.sessions.put({ id: 's30', cohort_id: 'c30', session_number: 1, topic: 'Budgeting', scheduled_at: '2099-01-07T09:00:00' });
  const people: Participant[] = [];
  const enrollments: Enrollment[] = [];
  for (let i = 1; i <= n; i++) {
    const id = `q${String(i).padStart(2, '0')}`;
    people.push({ id, first_name: 'Person', last_name: String(i).padStart(2, '0'), academy_uid: `RA-1${String(i).padStart(2, '0')}` });
    enrollments.push({ id: `eq${i}`, participant_id: id, cohort_id: 'c30', intake_date: '2099-01-01', enrollment_status: 'active' });
  }
  await db.participants.bulkPut(people);
  await db.enrollments.bulkPut(enrollments);
}

/** The records of a session, by participant. */
export async function statuses(sessionId: string): Promise<Map<string, Attendance['status']>> {
  const rows = await db.attendance.where('session_id').equals(sessionId).toArray();
  return new Map(rows.map((r) => [r.participant_id, r.status]));
}
