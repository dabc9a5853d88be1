import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useAuth } from '../../lib/auth';
import { AccountSection } from './account-section';
import { DebugSection } from './debug-section';
import { GeneralSection } from './general-section';
import { InvoicesSection } from './invoices-section';
import { PreferencesSection } from './preferences-section';
import { SubscriptionSection } from './subscription-section';
import { UsageSection } from './usage-section';
import { VersionSection } from './version-section';
import './settings.css';

/** Settings (spec 000 §2.5). */
export function SettingsPage() {
  const { profile, subscription } = useAuth();
  const { hash } = useLocation();

  // Spec 000 §2.2: /settings#subscription-details opens at the subscription. The page loads lazily,
  // after the browser's own jump to the anchor, so it scrolls there itself.
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [hash, profile !== null]);

  if (!profile) return null;
  return (
    <div className="settings-page">
      <h1 className="settings-title">Settings</h1>
      <GeneralSection apiKey={profile.apiKey} />
      <AccountSection profile={profile} />
      {subscription && <SubscriptionSection subscription={subscription} />}
      <UsageSection subscription={subscription} />
      <InvoicesSection />
      <PreferencesSection settings={profile.settings} />
      <VersionSection />
      {profile.isAdmin && <DebugSection />}
    </div>
  );
}
