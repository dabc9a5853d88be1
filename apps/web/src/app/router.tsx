import { lazy, Suspense } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { ResetPasswordPage } from '../features/auth/reset-password-page';
import { AuthPage } from '../features/auth/auth-page';
import { VerifyEmailPage } from '../features/auth/verify-email-page';
import { NotFoundPage } from '../features/not-found/not-found-page';
import { useAuth } from '../lib/auth';
import { LoadingScreen } from '../ui/spinner';
import { AccountLocked } from './shell/account-locked';
import { AppShell } from './shell/app-shell';
import { useAppliedTheme } from './use-applied-theme';

const SettingsPage = lazy(() => import('../features/settings/settings-page').then((m) => ({ default: m.SettingsPage })));
const DeviceDashboard = lazy(() => import('../features/devices/dashboard/device-dashboard').then((m) => ({ default: m.DeviceDashboard })));
const DevicesPage = lazy(() => import('../features/devices/devices-page').then((m) => ({ default: m.DevicesPage })));
const SessionsPage = lazy(() => import('../features/sessions/sessions-page').then((m) => ({ default: m.SessionsPage })));
const SessionPage = lazy(() => import('../features/sessions/session-page').then((m) => ({ default: m.SessionPage })));
const SharedSessionPage = lazy(() => import('../features/sessions/shared-session-page').then((m) => ({ default: m.SharedSessionPage })));
const ConnectPage = lazy(() => import('../features/devices/connect/connect-page').then((m) => ({ default: m.ConnectPage })));

/** Spec 000 §2.2. Screens inside the shell are children of the AppShell route. */
export const signedInRoutes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      { index: true, element: <Navigate to="/devices" replace /> },
      { path: 'signin', element: <Navigate to="/devices" replace /> },
      { path: 'signup', element: <Navigate to="/devices" replace /> },
      { path: 'devices', element: <DevicesPage /> },
      { path: 'devices/new', element: <ConnectPage /> },
      { path: 'devices/:deviceId', element: <DeviceDashboard /> },
      { path: 'devices/:deviceId/:view', element: <DeviceDashboard /> },
      { path: 'sessions', element: <SessionsPage /> },
      { path: 'sessions/:sessionId', element: <SessionPage /> },
      { path: 'shared-sessions/:sessionId', element: <SharedSessionPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  { path: 'verify-email', element: <VerifyEmailPage /> },
  { path: 'reset-password', element: <ResetPasswordPage /> },
];

/** Spec 000 §2.1: every other signed-out address shows the sign-in / sign-up form. */
export const signedOutRoutes: RouteObject[] = [
  // The public read-only view (spec 000 §2.1), also what the share host serves.
  { path: 'shared-sessions/:sessionId', element: <Suspense fallback={<LoadingScreen />}><SharedSessionPage /></Suspense> },
  { path: 'reset-password', element: <ResetPasswordPage /> },
  { path: 'verify-email', element: <VerifyEmailPage /> },
  { path: '*', element: <AuthPage /> },
];

export function AppRoutes() {
  const auth = useAuth();
  useAppliedTheme();
  const element = useRoutes(auth.isAuthenticated ? signedInRoutes : signedOutRoutes);
  if (auth.isLoading) return <LoadingScreen />;
  if (auth.profile?.isLockedUser) return <AccountLocked />;
  return element;
}
