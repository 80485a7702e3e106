/** Fixed demo content: programs, sites, names and topics (realistic, invented, no real people). */
export const PROGRAMS = [
  { program_name: 'Construction Pre-Apprenticeship', description: 'Twelve weeks of trades math, safety (OSHA-10) and hands-on carpentry, leading to union apprenticeship applications.' },
  { program_name: 'Culinary Arts Reentry', description: 'Kitchen fundamentals, ServSafe food handler certification and a paid externship with partner restaurants.' },
  { program_name: 'Digital Skills and Career Readiness', description: 'Computer basics, résumé writing, interview practice and job search support for the first months after release.' },
] as const;

export const SITES = [
  { site_name: 'Folsom State Prison', site_type: 'prison', city: 'Represa', county: 'Sacramento', region: 'North' },
  { site_name: 'Ventura Youth Correctional Facility', site_type: 'juvenile', city: 'Camarillo', county: 'Ventura', region: 'South' },
  { site_name: 'Pine Grove Conservation Camp', site_type: 'fire_camp', city: 'Pine Grove', county: 'Amador', region: 'North' },
  { site_name: 'Oakland Reentry Center', site_type: 'community', city: 'Oakland', county: 'Alameda', region: 'Bay Area' },
] as const;

export const FIRST_NAMES = [
  'Marcus', 'Luis', 'DeShawn', 'Anthony', 'Jose', 'Tyrone', 'Michael', 'Carlos', 'Andre', 'David',
  'Miguel', 'Jamal', 'Kevin', 'Ricardo', 'Terrell', 'Brian', 'Juan', 'Darnell', 'Eric', 'Victor',
  'Maria', 'Keisha', 'Angela', 'Rosa', 'Tanya', 'Jasmine', 'Lisa', 'Guadalupe', 'Monique', 'Sarah',
] as const;
export const LAST_NAMES = [
  'Johnson', 'Garcia', 'Williams', 'Martinez', 'Brown', 'Hernandez', 'Jones', 'Lopez', 'Davis', 'Gonzalez',
  'Robinson', 'Perez', 'Washington', 'Sanchez', 'Thompson', 'Ramirez', 'Jackson', 'Torres', 'Harris', 'Flores',
  'Nguyen', 'Carter', 'Rivera', 'Mitchell', 'Reyes', 'Coleman', 'Morales', 'Turner', 'Ortiz', 'Brooks',
] as const;
export const MIDDLE_INITIALS = ['A.', 'J.', 'L.', 'M.', 'R.', 'T.', null, null, null] as const;
export const CASE_MANAGERS = ['Dana Whitfield', 'Oscar Medina', 'Priya Raman', 'Grace Holloway'] as const;
export const RELATIONSHIPS = ['Mother', 'Sister', 'Brother', 'Spouse', 'Aunt', 'Friend'] as const;
export const STREETS = ['Telegraph Ave', 'International Blvd', 'MacArthur Blvd', 'San Pablo Ave', 'Broadway', 'Fruitvale Ave'] as const;

export const SESSION_TOPICS = [
  'Orientation and goal setting', 'Workplace safety', 'Tools and measurement', 'Communication at work',
  'Financial literacy', 'Résumé workshop', 'Mock interviews', 'Conflict resolution', 'Employer panel', 'Graduation planning',
] as const;

export const OUTCOME_TYPES = [
  { outcome_type: 'employment', description: 'Hired full time' },
  { outcome_type: 'certification', description: 'Earned industry certification' },
  { outcome_type: 'housing', description: 'Secured stable housing' },
  { outcome_type: 'education', description: 'Enrolled in community college' },
] as const;
