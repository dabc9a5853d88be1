import { z } from 'zod';
import { LIMITS } from './constants';
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
/**
 * The settings dialog's new password passes the rules of sign-up: a stolen session must not set a
 * weaker password than the owner could choose. Their 10 characters cover the dialog's own
 * 8-character minimum (spec 000 §5), so that message would only repeat the longer one.
 */
export const ChangePasswordBody = z.strictObject({
  currentPassword: password('Current password is required').min(1, 'Current password is required'),
  newPassword: NewPassword,
});

export const TokenResponse = z.object({ token: z.string() });
export const TokenProfileResponse = z.object({ token: z.string(), profile: Profile });
export const MessageResponse = z.object({ message: z.string() });
