import { z } from 'zod';
import { CHANGE_PASSWORD_MIN_LENGTH, LIMITS } from './constants';
import { Email, Timezone, emailField, whenMissing } from './common';
import { passwordProblems } from './passwords';
import { Profile } from './user';

const password = (required: string) => z.string({ error: whenMissing(required) }).max(LIMITS.password);
const Password = password('Password is required');
/** Sign-up and reset apply the shared checker; every failed rule becomes its own issue. */
const NewPassword = Password.superRefine((value, ctx) => {
  for (const message of passwordProblems(value)) ctx.addIssue({ code: 'custom', message });
});

export const SignInBody = z.strictObject({
  email: Email,
  password: Password.min(1, 'Password is required'),
  timezone: Timezone.optional(),
});
export const SignUpBody = z.strictObject({
  email: Email,
  password: NewPassword,
  timezone: Timezone.optional(),
  referrer: z.string().max(LIMITS.shortText).optional(),
});
export const GoogleSignInBody = z.strictObject({ token: z.string().min(1).max(8192), timezone: Timezone.optional() });
export const VerifyEmailQuery = z.object({
  token: z.string({ error: whenMissing('Invalid verification link') }).min(1, 'Invalid verification link').max(200),
});
/** Forgot-password and resend-verification: the reset form asks 'Please enter your email' (spec 000 §5). */
export const EmailBody = z.strictObject({ email: emailField('Please enter your email') });
export const ResetPasswordBody = z.strictObject({ token: z.string().min(1).max(200), newPassword: NewPassword });
export const ChangePasswordBody = z.strictObject({
  currentPassword: password('Current password is required').min(1, 'Current password is required'),
  newPassword: Password.min(CHANGE_PASSWORD_MIN_LENGTH, `Password must be at least ${CHANGE_PASSWORD_MIN_LENGTH} characters long`),
});

export const TokenResponse = z.object({ token: z.string() });
export const TokenProfileResponse = z.object({ token: z.string(), profile: Profile });
export const MessageResponse = z.object({ message: z.string() });
