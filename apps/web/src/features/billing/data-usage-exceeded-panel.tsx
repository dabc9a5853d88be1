import type { Subscription } from '@spyglass/protocol';
import { Gauge } from 'lucide-react';
import { Button } from '../../ui/button';
import { usePricingModal } from './pricing-modal';
import './billing.css';

/** Spec 000 §4.4: the period's traffic reached the plan's limit (metered at ingest). */
export const isOverQuota = (s: Pick<Subscription, 'trafficUsed' | 'trafficLimit'>): boolean =>
  s.trafficLimit !== null && s.trafficUsed >= s.trafficLimit;

/** Spec 000 §8: new requests are refused until an upgrade; what was captured stays readable. */
export function DataUsageExceededPanel() {
  const openPricing = usePricingModal();
  return (
    <div className="billing-panel" role="alert">
      <Gauge size={28} aria-hidden="true" className="billing-panel-icon" />
      <h2 className="billing-panel-title">Data Usage Exceeded</h2>
      <p className="billing-panel-text">You have exceeded your quota. Please upgrade your plan</p>
      <Button variant="primary" onClick={openPricing}>Upgrade Plan</Button>
    </div>
  );
}
