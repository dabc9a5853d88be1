import type { Subscription } from '@spyglass/protocol';
import { SettingsRow, SettingsSection } from './settings-section';

const PLAN_NAMES: Record<Subscription['plan'], string> = { free: 'Free', team: 'Team', pro: 'Pro', enterprise: 'Enterprise' };

/** Free users see that the product is free, with no subscription controls (spec 000 §4.4). */
export function SubscriptionSection({ subscription }: { subscription: Subscription }) {
  return (
    <SettingsSection title="Subscription" id="subscription-details">
      {subscription.isFreeUser ? (
        <SettingsRow label="Free" description="You can currently use the product completely free of charge" />
      ) : (
        <SettingsRow label={PLAN_NAMES[subscription.plan]} description={`Status: ${subscription.status}`} />
      )}
    </SettingsSection>
  );
}
