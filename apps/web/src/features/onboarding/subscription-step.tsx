import type { Subscription } from '@spyglass/protocol';
import { Check } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '../../ui/button';
import { PricingPlans } from '../billing/pricing-plans';
import { StepFrame } from './step-frame';

export type SubscriptionOutcome = 'success' | 'canceled' | null;

export const hasValidSubscription = (s: Subscription | null) => s !== null && !s.isFreeUser && (s.status === 'active' || s.status === 'trialing');

/**
 * Spec 000 §4.3: free users are told the product is free; a valid subscription is confirmed;
 * everyone else chooses a plan. Coming back from Checkout canceled shows 'Subscription Required'.
 */
export function SubscriptionStep({ subscription, outcome, onNext, onFreeChosen, onBack }: {
  subscription: Subscription | null;
  outcome: SubscriptionOutcome;
  onNext: () => void;
  onFreeChosen: () => void;
  onBack: (() => void) | null;
}) {
  const [choosing, setChoosing] = useState(false);
  const origin = window.location.origin;
  const checkoutReturn = useMemo(() => ({
    successUrl: `${origin}/onboarding?subscription=success#subscription`,
    cancelUrl: `${origin}/onboarding?subscription=canceled#subscription`,
  }), [origin]);

  if (subscription?.isFreeUser) {
    return (
      <StepFrame title="Subscription" onBack={onBack} actions={<Button variant="primary" onClick={onNext}>Next</Button>}>
        <p className="onboarding-highlight">You can currently use the product completely free of charge</p>
      </StepFrame>
    );
  }
  if (hasValidSubscription(subscription)) {
    return (
      <StepFrame title="Subscription" onBack={onBack} actions={<Button variant="primary" onClick={onNext}>Next</Button>}>
        <p className="onboarding-highlight">You already have a valid subscription</p>
      </StepFrame>
    );
  }
  if (outcome === 'canceled' && !choosing) {
    return (
      <StepFrame title="Subscription Required" onBack={onBack}
        description="Choose a plan to start using Spyglass. Every paid plan starts with a free trial."
        actions={<Button variant="primary" onClick={() => setChoosing(true)}>Choose a plan</Button>}>
        <ul className="onboarding-benefits">
          {['14-day free trial', 'Full access', 'No credit card', 'Cancel anytime'].map((benefit) => (
            <li key={benefit}><Check size={16} aria-hidden="true" />{benefit}</li>
          ))}
        </ul>
      </StepFrame>
    );
  }
  return (
    <StepFrame title="Choose your plan" onBack={onBack}
      description="Plans are billed by traffic volume. Start with a 14-day free trial, no credit card needed.">
      <PricingPlans subscription={subscription} checkoutReturn={checkoutReturn} onFreeChosen={onFreeChosen} />
    </StepFrame>
  );
}
