import { isSubscriptionUsable } from '@spyglass/protocol';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { usePricingModal } from '../../features/billing/pricing-modal';
import { TRIAL_EXPIRED_EVENT } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { useIsOnline } from '../../lib/media';
import { Banner } from '../../ui/banner';
import { LiveConnectionBanner } from './live-connection';

/** Set once any call answers 402 with trialExpired (spec 000 §7.1). */
function useTrialExpiredSignal(): boolean {
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    const onExpired = () => setExpired(true);
    window.addEventListener(TRIAL_EXPIRED_EVENT, onExpired);
    return () => window.removeEventListener(TRIAL_EXPIRED_EVENT, onExpired);
  }, []);
  return expired;
}

/** The banners of the whole app (spec 000 §2.2, texts of §8). */
export function AppBanners() {
  const { profile, subscription } = useAuth();
  const online = useIsOnline();
  const trialSignal = useTrialExpiredSignal();
  const openPricing = usePricingModal();

  const overQuota = profile?.shouldBlockRequests === true
    || (subscription !== null && subscription.trafficLimit !== null && subscription.trafficUsed >= subscription.trafficLimit);
  const trialExpired = trialSignal || (subscription !== null && !isSubscriptionUsable(subscription));
  const upgrade = <Link className="banner-action" to="/settings#subscription-details">Upgrade Plan</Link>;

  return (
    <div className="app-banners">
      {!online && <Banner tone="offline">You are currently offline. Some features may not be available.</Banner>}
      <LiveConnectionBanner />
      {overQuota && <Banner tone="danger" action={upgrade}>You have exceeded your quota. Please upgrade your plan</Banner>}
      {trialExpired && <Banner tone="warning" action={<button type="button" className="banner-action" onClick={openPricing}>Upgrade Plan</button>}>Your trial has expired. Please consider upgrading to a paid plan</Banner>}
    </div>
  );
}
