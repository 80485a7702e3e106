/** The five demo accounts, one per access state (spec.md section 4), all with DEMO_PASSWORD. */
export const DEMO_PASSWORD = 'demo-pass-2026';

export interface DemoAccount {
  email: string;
  full_name: string;
  role: 'admin' | 'user' | 'guest';
  state: string;
  /** User fields besides email, full_name and role; `today` and `admin` are filled in by the seed. */
  fields: (today: string, admin: string) => Record<string, unknown>;
}

const profile = {
  coach_type: 'lead_coach',
  phone: '(510) 555-0142',
  organization: 'Reentry Academy',
  years_experience: 6,
  linkedin_url: 'https://www.linkedin.com/in/example-coach',
  areas_of_expertise: 'Construction trades, job readiness',
  bio: 'Former site supervisor who has coached reentry cohorts since 2019.',
  certifications: 'OSHA-30, Certified Peer Specialist',
  emergency_contact_name: 'Robin Ellis',
  emergency_contact_phone: '(510) 555-0199',
};

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { email: 'admin@example.org', full_name: 'Alex Morgan', role: 'admin', state: 'admin', fields: (today) => ({ approved: true, approval_date: today }) },
  {
    email: 'coach@example.org',
    full_name: 'Jordan Ellis',
    role: 'user',
    state: 'approved coach',
    fields: (today, admin) => ({ ...profile, requested_access_date: today, approved: true, approval_date: today, approved_by: admin }),
  },
  { email: 'newcoach@example.org', full_name: 'Sam Patel', role: 'user', state: 'no profile yet', fields: () => ({}) },
  {
    email: 'pending@example.org',
    full_name: 'Casey Nguyen',
    role: 'user',
    state: 'pending approval',
    fields: (today) => ({ ...profile, coach_type: 'support_coach', phone: '(916) 555-0110', requested_access_date: today, approved: false }),
  },
  {
    email: 'rejected@example.org',
    full_name: 'Riley Brooks',
    role: 'guest',
    state: 'rejected',
    fields: (today) => ({ ...profile, coach_type: 'volunteer', requested_access_date: today, approved: false }),
  },
];
