import type { Profile } from '@spyglass/protocol';
import { lazy, Suspense } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { ResetPasswordPage } from '../features/auth/reset-password-page';
import { AuthPage } from '../features/auth/auth-page';
import { VerifyEmailPage } from '../features/auth/verify-email-page';
import { NotFoundPage } from '../features/not-found/not-found-page';
import { sessionScreen, sharedSessionScreen } from '../features/sessions/session-prefetch';
import { useAuth } from '../lib/auth';
import { LoadingScreen } from '../ui/spinner';
import { AccountLocked } from './shell/account-locked';
import { AppShell } from './shell/app-shell';
import { useAppliedTheme } from './use-applied-theme';

const SettingsPage = lazy(() => import('../features/settings/settings-page').then((m) => ({ default: m.SettingsPage })));
const DeviceDashboard = lazy(() => import('../features/devices/dashboard/device-dashboard').then((m) => ({ default: m.DeviceDashboard })));
const DevicesPage = lazy(() => import('../features/devices/devices-page').then((m) => ({ default: m.DevicesPage })));
const SessionsPage = lazy(() => import('../features/sessions/sessions-page').then((m) => ({ default: m.SessionsPage })));
// Their chunks and data may be asked for before they render (session-prefetch.ts).
const SessionPage = sessionScreen.Screen;
const SharedSessionPage = sharedSessionScreen.Screen;
const WelcomeTourPage = lazy(() => import('../features/welcome-tour/welcome-tour-page').then((m) => ({ default: m.WelcomeTourPage })));
const AdminPage = lazy(() => import('../features/admin/admin-page').then((m) => ({ default: m.AdminPage })));
const OnboardingPage = lazy(() => import('../features/onboarding/onboarding-page').then((m) => ({ default: m.OnboardingPage })));
const ConnectPage = lazy(() => import('../features/devices/connect/connect-page').then((m) => ({ default: m.ConnectPage })));
const DeviceEmulatorPage = lazy(() => import('../features/device-emulator/device-emulator-page').then((m) => ({ default: m.DeviceEmulatorPage })));
const CompanionPage = lazy(() => import('../features/companion/companion-page').then((m) => ({ default: m.CompanionPage })));
const RecordDemoPage = lazy(() => import('../features/demo-studio/record-demo-page').then((m) => ({ default: m.RecordDemoPage })));
const SdkDocsPage = lazy(() => import('../features/docs/sdk-docs-page').then((m) => ({ default: m.SdkDocsPage })));

/** What the connect screen's QR code opens on a phone, signed in or not: a page of its own, no shell. */
const companionRoute: RouteObject = { path: 'companion', element: <Suspense fallback={<LoadingScreen />}><CompanionPage /></Suspense> };

/** Spec 000 §2.2. Screens inside the shell are children of the AppShell route. */
export const signedInRoutes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      { index: true, element: <Navigate to="/devices" replace /> },
      { path: 'signin', element: <Navigate to="/devices" replace /> },
      { path: 'signup', element: <Navigate to="/devices" replace /> },
      // Spec 000 §2.4: where a completed onboarding goes; the device list is the dashboard.
      { path: 'dashboard', element: <Navigate to="/devices" replace /> },
      { path: 'onboarding', element: <Navigate to="/devices" replace /> },
      { path: 'devices', element: <DevicesPage /> },
      { path: 'devices/new', element: <ConnectPage /> },
      { path: 'devices/:deviceId', element: <DeviceDashboard /> },
      { path: 'devices/:deviceId/:view', element: <DeviceDashboard /> },
      { path: 'sessions', element: <SessionsPage /> },
      { path: 'sessions/:sessionId', element: <SessionPage /> },
      { path: 'shared-sessions/:sessionId', element: <SharedSessionPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: 'device-emulator', element: <DeviceEmulatorPage /> },
      { path: 'docs/sdk', element: <SdkDocsPage /> },
      { path: 'welcome-tour', element: <WelcomeTourPage /> },
      { path: 'admin', element: <AdminPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  { path: 'verify-email', element: <VerifyEmailPage /> },
  { path: 'reset-password', element: <ResetPasswordPage /> },
  companionRoute,
];

/**
 * Spec 000 §2.2: a user who has not completed onboarding sees the onboarding flow instead of the
 * screens; every other address leads there (a verified address skips the welcome and e-mail steps).
 */
export const onboardingRoutes: RouteObject[] = [
  { path: 'onboarding', element: <Suspense fallback={<LoadingScreen />}><OnboardingPage /></Suspense> },
  { path: 'verify-email', element: <VerifyEmailPage /> },
  { path: 'reset-password', element: <ResetPasswordPage /> },
  { path: '*', element: <OnboardingRedirect /> },
];

function OnboardingRedirect() {
  const { profile } = useAuth();
  return <Navigate to={profile?.emailVerified ? '/onboarding#details' : '/onboarding#welcome'} replace />;
}

/** Demo accounts are made to look around at once; they have no onboarding. */
const needsOnboarding = (profile: Profile | null) => profile !== null && !profile.onboardingCompleted && !profile.isDemoUser;

/** Spec 000 §2.1: every other signed-out address shows the sign-in / sign-up form. */
export const signedOutRoutes: RouteObject[] = [
  // The public read-only view (spec 000 §2.1), also what the share host serves.
  { path: 'shared-sessions/:sessionId', element: <Suspense fallback={<LoadingScreen />}><SharedSessionPage /></Suspense> },
  { path: 'reset-password', element: <ResetPasswordPage /> },
  { path: 'verify-email', element: <VerifyEmailPage /> },
  companionRoute,
  { path: 'docs/sdk', element: <Suspense fallback={<LoadingScreen />}><SdkDocsPage /></Suspense> },
  { path: 'record-demo', element: <Suspense fallback={<LoadingScreen />}><RecordDemoPage /></Suspense> },
  { path: '*', element: <AuthPage /> },
];

export function AppRoutes() {
  const auth = useAuth();
  useAppliedTheme();
  const element = useRoutes(!auth.isAuthenticated ? signedOutRoutes : needsOnboarding(auth.profile) ? onboardingRoutes : signedInRoutes);
  if (auth.isLoading) return <LoadingScreen />;
  if (auth.profile?.isLockedUser) return <AccountLocked />;
  return element;
}
