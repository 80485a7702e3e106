/**
 * The cohort code of spec 5 (AddCohort 'Generate'): program initials, site initials, start year
 * and quarter, e.g. 'Financial Literacy Basics' at 'San Quentin State Prison' from 2025-02-10 →
 * 'FLB-SQS-2025Q1'.
 */

/** Upper-case first letters of the words of a name, at most 3 (spec 9: "up to 3 initials"). */
export function initials(name: string): string {
  return name
    .split(/\s+/)
    // A word's initial is its first letter or digit, so '(Pilot)' gives 'P' rather than '('.
    .map((word) => word.match(/[\p{L}\p{N}]/u)?.[0] ?? '')
    .filter(Boolean)
    .slice(0, 3)
    .join('')
    .toUpperCase();
}

/** Quarter of a month 1–12: the month divided by 3, rounded up. */
export function quarterOf(month: number): number {
  return Math.ceil(month / 3);
}

/**
 * The code for a cohort, or null when the start date is not a 'YYYY-MM-DD' date. The year and
 * month are read from the text, not through `new Date()`, which would read '2025-01-01' as UTC
 * midnight and land in the previous year's Q4 west of Greenwich.
 */
export function generateCohortCode(programName: string, siteName: string, startDate: string): string | null {
  const m = /^(\d{4})-(\d{2})-\d{2}/.exec(startDate);
  if (!m) return null;
  const month = Number(m[2]);
  if (month < 1 || month > 12) return null;
  return `${initials(programName)}-${initials(siteName)}-${m[1]}Q${quarterOf(month)}`;
}

/** How codes are compared for uniqueness: trimmed, case ignored (the server compares the same way). */
export function codeKey(code: string | null | undefined): string {
  return (code ?? '').trim().toLowerCase();
}

/**
 * Issue #12.3: the generated code, or — when a cohort already has it — the same code with the next
 * free suffix: FLB-SQP-2025Q1, then FLB-SQP-2025Q1-2, -3, … `taken` holds codeKey()s.
 */
export function nextFreeCohortCode(code: string, taken: ReadonlySet<string>): string {
  if (!taken.has(codeKey(code))) return code;
  for (let n = 2; ; n++) {
    const candidate = `${code}-${n}`;
    if (!taken.has(codeKey(candidate))) return candidate;
  }
}

/** The field message for a code another cohort already uses (the spec is silent; wording is ours). */
export function duplicateCodeMessage(code: string): string {
  return `Another cohort already uses the code ${code.trim()}. Cohort codes must be unique.`;
}
