import { z } from 'zod';
import { DemoUserResponse, MessageResponse, Profile, TokenProfileResponse, TokenResponse } from '@spyglass/protocol';
import { api } from '../../lib/api';

const timezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export const signIn = (email: string, password: string) =>
  api.post('/auth/signin', { email, password, timezone: timezone() }, TokenResponse, { errorMessage: 'Login failed' });

export const signUp = (email: string, password: string, referrer: string | null) =>
  api.post('/auth/signup', { email, password, timezone: timezone(), referrer: referrer ?? undefined }, TokenProfileResponse.partial(), {
    errorMessage: 'Registration failed',
  });

export const googleSignIn = (idToken: string) =>
  api.post('/auth/google', { token: idToken, timezone: timezone() }, TokenProfileResponse, { errorMessage: 'Google login failed' });

export const verifyEmail = (token: string) =>
  api.get('/auth/verify-email', z.object({ profile: Profile }), { query: { token }, errorMessage: 'Failed to verify email' })
    .then((r) => r.profile);

export const resendVerification = (email: string) =>
  api.post('/auth/resend-verification', { email }, MessageResponse, { errorMessage: 'Failed to resend verification email' });

export const forgotPassword = (email: string) =>
  api.post('/auth/forgot-password', { email }, MessageResponse, { errorMessage: 'Failed to send reset email' });

export const resetPassword = (token: string, newPassword: string) =>
  api.post('/auth/reset-password', { token, newPassword }, MessageResponse, { errorMessage: 'Failed to reset password' });

export const createDemoUser = () =>
  api.post('/user/demo', { timezone: timezone() }, DemoUserResponse, { errorMessage: 'Login failed' });
