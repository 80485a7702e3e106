import { db } from '../../../src/data/db';

/** Program pr1 with 3 cohorts at 2 sites; enrollments of every status; pr2 has none. */
export async function seedProgramsAndSites() {
  await db.programs.bulkPut([
    { id: 'pr1', program_name: 'Financial Literacy', description: 'Budgets, credit and banking', active: true },
    { id: 'pr2', program_name: 'Credit Repair', description: null, active: false },
  ]);
  await db.sites.bulkPut([
    { id: 's1', site_name: 'San Quentin', site_type: 'prison', city: 'San Quentin', county: 'Marin', region: 'North', active: true },
    { id: 's2', site_name: 'Oak Glen', site_type: 'fire_camp', active: false },
    { id: 's3', site_name: 'Empty Site', site_type: null, active: true },
  ]);
  await db.cohorts.bulkPut([
    { id: 'c1', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-SQ-2025Q1', start_date: '2025-01-06', capacity: 12, status: 'active', lead_coach_email: 'lee@example.org', support_coach_emails: ['ann@example.org'] },
    { id: 'c2', program_id: 'pr1', site_id: 's2', cohort_code: 'FL-OG-2025Q2', start_date: '2025-04-07', capacity: null, status: 'planned', lead_coach_email: 'ann@example.org' },
    { id: 'c3', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-SQ-2024Q4', start_date: '2024-10-01', capacity: 10, status: 'completed' },
    { id: 'c4', program_id: 'pr2', site_id: 's1', cohort_code: 'CR-SQ-2025Q1', start_date: '2025-02-01', capacity: 8, status: 'active', lead_coach_email: 'bo@example.org' },
  ]);
  await db.enrollments.bulkPut([
    { id: 'e1', participant_id: 'p1', cohort_id: 'c1', enrollment_status: 'active' },
    { id: 'e2', participant_id: 'p2', cohort_id: 'c1', enrollment_status: 'active' },
    { id: 'e3', participant_id: 'p3', cohort_id: 'c1', enrollment_status: 'withdrawn' },
    { id: 'e4', participant_id: 'p1', cohort_id: 'c2', enrollment_status: 'active' },
    { id: 'e5', participant_id: 'p4', cohort_id: 'c3', enrollment_status: 'graduated' },
    { id: 'e6', participant_id: 'p5', cohort_id: 'c4', enrollment_status: 'active' },
  ]);
}
