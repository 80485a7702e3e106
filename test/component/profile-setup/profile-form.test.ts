import { describe, expect, it } from 'vitest';
import { hasMissingRequired, initialProfileForm, toProfileFields, validateProfileForm } from '../../../src/screens/profile-setup/profile-form';

const filled = { ...initialProfileForm(null), phone: '555-0100', organization: 'Folsom', bio: 'Ten years teaching budgeting.' };

describe('coach profile form rules (spec 2.14, 5)', () => {
  it('defaults coach type to support_coach and pre-fills from the user', () => {
    expect(initialProfileForm(null).coach_type).toBe('support_coach');
    expect(initialProfileForm({ coach_type: 'lead_coach', years_experience: 4, phone: '1' })).toMatchObject({
      coach_type: 'lead_coach',
      years_experience: '4',
      phone: '1',
    });
  });

  it('coach type, phone, organization and background are all required (both readings)', () => {
    for (const field of ['coach_type', 'phone', 'organization', 'bio'] as const) {
      const errors = validateProfileForm({ ...filled, [field]: '  ' });
      expect(hasMissingRequired(errors)).toBe(true);
      expect(errors[field]).toBe('Required');
    }
    expect(validateProfileForm(filled)).toEqual({});
  });

  it('years must be a number ≥ 0; LinkedIn must be a web address', () => {
    expect(validateProfileForm({ ...filled, years_experience: '-1' }).years_experience).toBeDefined();
    expect(validateProfileForm({ ...filled, years_experience: 'lots' }).years_experience).toBeDefined();
    expect(validateProfileForm({ ...filled, years_experience: '0' })).toEqual({});
    expect(validateProfileForm({ ...filled, linkedin_url: 'linkedin.com/in/x' }).linkedin_url).toBeDefined();
    expect(validateProfileForm({ ...filled, linkedin_url: 'javascript:alert(1)' }).linkedin_url).toBeDefined();
    expect(validateProfileForm({ ...filled, linkedin_url: 'https://linkedin.com/in/x' })).toEqual({});
  });

  it('saves years as a whole number and empty optional text as null', () => {
    expect(toProfileFields({ ...filled, years_experience: '7.9', certifications: ' ' })).toMatchObject({
      years_experience: 7,
      certifications: null,
      phone: '555-0100',
      coach_type: 'support_coach',
    });
    expect(toProfileFields(filled).years_experience).toBeNull();
  });
});
