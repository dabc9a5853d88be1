import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ChangePasswordBody, EmailBody, ResetPasswordBody, SignInBody, SignUpBody, VerifyEmailQuery,
} from './auth';
import { DELETE_ACCOUNT_CONFIRMATION } from './constants';
import { DeleteAccountBody, DetailsBody, OnboardingResponsesBody, UpdateEmailBody } from './user';

/** The messages of the issues at `path`, or [] when the input is accepted. */
function messagesAt(schema: z.ZodType, input: unknown, path: string): string[] {
  const result = schema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.filter((i) => i.path.join('.') === path).map((i) => i.message);
}

const GOOD_PASSWORD = 'Sup3r-secret!';
const DETAILS = { firstName: 'Ada', lastName: 'Lovelace', company: 'Acme', companySize: '1', role: 'developer' };

const WRONG_TYPES: [string, unknown][] = [['missing', undefined], ['null', null], ['a number', 42], ['an object', {}]];

/** Each row: schema, a valid body, the field, the spec 000 §5 text a missing or wrongly typed value answers. */
const REQUIRED: [string, z.ZodType, Record<string, unknown>, string, string][] = [
  ['sign-in', SignInBody, { email: 'a@b.co', password: 'x' }, 'email', 'Email is required'],
  ['sign-in', SignInBody, { email: 'a@b.co', password: 'x' }, 'password', 'Password is required'],
  ['sign-up', SignUpBody, { email: 'a@b.co', password: GOOD_PASSWORD }, 'email', 'Email is required'],
  ['sign-up', SignUpBody, { email: 'a@b.co', password: GOOD_PASSWORD }, 'password', 'Password is required'],
  ['forgot password', EmailBody, { email: 'a@b.co' }, 'email', 'Please enter your email'],
  ['reset password', ResetPasswordBody, { token: 't', newPassword: GOOD_PASSWORD }, 'newPassword', 'Password is required'],
  ['change password', ChangePasswordBody, { currentPassword: 'old', newPassword: GOOD_PASSWORD }, 'currentPassword', 'Current password is required'],
  ['change password', ChangePasswordBody, { currentPassword: 'old', newPassword: GOOD_PASSWORD }, 'newPassword', 'Password is required'],
  ['verify email', VerifyEmailQuery, { token: 't' }, 'token', 'Invalid verification link'],
  ['update email', UpdateEmailBody, { email: 'a@b.co' }, 'email', 'Email is required'],
  ['delete account', DeleteAccountBody, { confirmation: DELETE_ACCOUNT_CONFIRMATION }, 'confirmation', `Please type "${DELETE_ACCOUNT_CONFIRMATION}" to confirm`],
  ['details', DetailsBody, DETAILS, 'firstName', 'First name is required'],
  ['details', DetailsBody, DETAILS, 'lastName', 'Last name is required'],
  ['details', DetailsBody, DETAILS, 'company', 'Company is required'],
  ['details', DetailsBody, DETAILS, 'companySize', 'Company size is required'],
  ['details', DetailsBody, DETAILS, 'role', 'Role is required'],
  ['onboarding', OnboardingResponsesBody, { signupSource: 'google', signupUsecases: ['debugging'] }, 'signupSource', 'Please select a source'],
  ['onboarding', OnboardingResponsesBody, { signupSource: 'google', signupUsecases: ['debugging'] }, 'signupUsecases', 'Please select a use case'],
];

describe('account schemas answer the spec text for a missing or wrongly typed field', () => {
  for (const [form, schema, valid, field, message] of REQUIRED) {
    it(`${form}: the valid body is accepted`, () => {
      expect(schema.safeParse(valid).success).toBe(true);
    });
    for (const [kind, value] of WRONG_TYPES) {
      it(`${form}: ${field} ${kind} -> '${message}'`, () => {
        const input: Record<string, unknown> = { ...valid, [field]: value };
        if (value === undefined) delete input[field];
        expect(messagesAt(schema, input, field)).toEqual([message]);
      });
    }
  }
});

describe('the other checks keep their own messages', () => {
  it('a malformed or blank email is invalid, not missing', () => {
    expect(messagesAt(SignInBody, { email: 'nope', password: 'x' }, 'email')).toEqual(['Invalid email']);
    expect(messagesAt(EmailBody, { email: '  ' }, 'email')).toEqual(['Invalid email']);
  });
  it('an over-long email keeps zod\'s length message', () => {
    const [message] = messagesAt(SignInBody, { email: `${'a'.repeat(400)}@b.co`, password: 'x' }, 'email');
    expect(message).toMatch(/^Too big/);
  });
  it('an empty sign-in password is required; an over-long one is too big', () => {
    expect(messagesAt(SignInBody, { email: 'a@b.co', password: '' }, 'password')).toEqual(['Password is required']);
    expect(messagesAt(SignInBody, { email: 'a@b.co', password: 'x'.repeat(10_000) }, 'password')[0]).toMatch(/^Too big/);
  });
  it('sign-up lists every failed password rule', () => {
    expect(messagesAt(SignUpBody, { email: 'a@b.co', password: 'short' }, 'password')).toEqual([
      'Password must be at least 10 characters long',
      'Password must contain at least one number',
      'Password must contain at least one special character',
    ]);
  });
  it('change password applies the rules of sign-up (their 10 characters cover the dialog\'s 8)', () => {
    expect(messagesAt(ChangePasswordBody, { currentPassword: 'old', newPassword: 'aaaaaaaa' }, 'newPassword')).toEqual([
      'Password must be at least 10 characters long',
      'Password must contain at least one number',
      'Password must contain at least one special character',
    ]);
    expect(messagesAt(ChangePasswordBody, { currentPassword: 'old', newPassword: GOOD_PASSWORD }, 'newPassword')).toEqual([]);
  });
  it('a blank name is required and an over-long one is too big', () => {
    expect(messagesAt(DetailsBody, { ...DETAILS, firstName: '   ' }, 'firstName')).toEqual(['First name is required']);
    expect(messagesAt(DetailsBody, { ...DETAILS, company: 'x'.repeat(10_000) }, 'company')[0]).toMatch(/^Too big/);
  });
  it('an empty use-case list asks for one; an unknown use case is an invalid option', () => {
    const body = { signupSource: 'google' };
    expect(messagesAt(OnboardingResponsesBody, { ...body, signupUsecases: [] }, 'signupUsecases')).toEqual(['Please select a use case']);
    expect(messagesAt(OnboardingResponsesBody, { ...body, signupUsecases: ['nope'] }, 'signupUsecases.0')[0]).toMatch(/^Invalid option/);
  });
});
