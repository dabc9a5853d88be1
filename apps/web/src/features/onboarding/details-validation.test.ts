import { describe, expect, it } from 'vitest';
import { validateDetails, type DetailsForm } from './details-validation';

const EMPTY: DetailsForm = { firstName: '', lastName: '', company: '', companySize: '', role: '', signupSource: '', signupUsecases: [] };

describe('onboarding details (spec 000 §5)', () => {
  it('names every missing field with its own message', () => {
    expect(validateDetails({ ...EMPTY, firstName: '   ' })).toEqual({
      errors: {
        firstName: 'First name is required',
        lastName: 'Last name is required',
        company: 'Company is required',
        companySize: 'Company size is required',
        role: 'Role is required',
        signupSource: 'Please select a source',
        signupUsecases: 'Please select a use case',
      },
    });
  });

  it('answers the two payloads of a complete form, trimmed', () => {
    expect(validateDetails({
      firstName: ' Ada ', lastName: 'Lovelace', company: 'Engines', companySize: '2-5', role: 'cto', signupSource: 'github', signupUsecases: ['debugging'],
    })).toEqual({
      details: { firstName: 'Ada', lastName: 'Lovelace', company: 'Engines', companySize: '2-5', role: 'cto' },
      responses: { signupSource: 'github', signupUsecases: ['debugging'] },
    });
  });

  it('refuses values outside the option lists', () => {
    const result = validateDetails({ ...EMPTY, firstName: 'A', lastName: 'B', company: 'C', companySize: '3', role: 'wizard', signupSource: 'tv', signupUsecases: ['x'] });
    expect(result).toEqual({ errors: { companySize: 'Company size is required', role: 'Role is required', signupSource: 'Please select a source', signupUsecases: 'Please select a use case' } });
  });
});
