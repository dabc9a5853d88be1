import { Clock } from 'lucide-react';
import { Button } from '../../ui/button';
import { usePricingModal } from './pricing-modal';
import './billing.css';

/** Spec 000 §8: shown instead of a screen while the account's subscription is not usable. */
export function SubscriptionExpiredPanel() {
  const openPricing = usePricingModal();
  return (
    <div className="billing-panel" role="alert">
      <Clock size={28} aria-hidden="true" className="billing-panel-icon" />
      <h2 className="billing-panel-title">Subscription Expired</h2>
      <p className="billing-panel-text">Your trial has expired. Please consider upgrading to a paid plan</p>
      <Button variant="primary" onClick={openPricing}>Upgrade Plan</Button>
    </div>
  );
}
