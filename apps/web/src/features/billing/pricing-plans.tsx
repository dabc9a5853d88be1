import { PAID_PLANS, type BillingCycle, type PaidPlanId, type Plan, type Subscription } from '@spyglass/protocol';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/api';
import { useProfile } from '../../lib/auth';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { AnimatedPrice } from './animated-price';
import { chooseFreePlan, createCheckoutSession, usePlans, useSetSubscription } from './billing.api';
import { PlanFeatures } from './plan-features';
import './billing.css';

export const FREE_USER_TOAST = 'You are now a free user';

/** Where Checkout sends the browser back to: both on this site. */
export interface CheckoutReturn {
  successUrl: string;
  cancelUrl: string;
}

const isCurrent = (subscription: Subscription | null, plan: Plan['id']) =>
  subscription !== null && subscription.plan === plan && (subscription.status === 'active' || subscription.status === 'trialing');

/**
 * The pricing chooser (spec 000 §4.5): the billing-cycle toggle, the Team, Pro ('Most popular') and
 * Enterprise cards, and the free card. A paid plan goes to Stripe Checkout; the free one is chosen here.
 */
export function PricingPlans({ subscription, checkoutReturn, onFreeChosen }: {
  subscription: Subscription | null;
  checkoutReturn: CheckoutReturn;
  onFreeChosen?: () => void;
}) {
  const plans = usePlans();
  const profile = useProfile();
  const setSubscription = useSetSubscription();
  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  const [busy, setBusy] = useState<Plan['id'] | null>(null);

  if (!plans) return <div className="pricing-loading"><Spinner size={20} /></div>;
  const paid = PAID_PLANS.map((id) => plans.find((p) => p.id === id)).filter((p): p is Plan => p !== undefined);
  const free = plans.find((p) => p.id === 'free');
  const inTrial = subscription !== null && subscription.plan === 'free' && subscription.trialEndsAt !== null && Date.parse(subscription.trialEndsAt) > Date.now();

  async function checkout(plan: PaidPlanId) {
    setBusy(plan);
    try {
      const session = await createCheckoutSession(plan, cycle, checkoutReturn.successUrl, checkoutReturn.cancelUrl);
      window.location.assign(session.url);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to start the checkout'));
      setBusy(null);
    }
  }

  async function chooseFree() {
    setBusy('free');
    try {
      setSubscription(await chooseFreePlan(profile.id, cycle));
      toast.success(FREE_USER_TOAST);
      onFreeChosen?.();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to choose the free plan'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="pricing">
      <div className="pricing-cycle" role="group" aria-label="Billing cycle">
        <button type="button" className="pricing-cycle-option" aria-pressed={cycle === 'monthly'} onClick={() => setCycle('monthly')}>Monthly</button>
        <button type="button" className="pricing-cycle-option" aria-pressed={cycle === 'yearly'} onClick={() => setCycle('yearly')}>
          Yearly <span className="pricing-save">Yearly saves 2 months</span>
        </button>
      </div>
      <div className="pricing-cards">
        {paid.map((plan) => {
          const current = isCurrent(subscription, plan.id);
          const popular = plan.id === 'pro';
          return (
            <section key={plan.id} className={`plan-card${popular ? ' is-popular' : ''}`} aria-label={`${plan.name} plan`}>
              {popular && <span className="plan-badge">Most popular</span>}
              <h3 className="plan-name">{plan.name}</h3>
              <div className="plan-price">
                <AnimatedPrice value={plan.billingCycles[cycle].price} currency={plan.currency} />
                <span className="plan-per">/{cycle === 'monthly' ? 'month' : 'year'}</span>
              </div>
              <p className="plan-note">{plan.hasFreeTrial && inTrial ? '14-day free trial, no credit card' : `Billed ${cycle}`}</p>
              <Button
                variant={popular ? 'primary' : 'secondary'}
                className="plan-action"
                disabled={current || busy !== null}
                loading={busy === plan.id}
                onClick={() => void checkout(plan.id as PaidPlanId)}
              >
                {current ? 'Your Current plan' : plan.hasFreeTrial && inTrial ? 'Start free trial' : `Choose ${plan.name}`}
              </Button>
              <PlanFeatures features={plan.billingCycles[cycle].features} />
            </section>
          );
        })}
      </div>
      {free && (
        <section className="plan-card plan-card-free" aria-label="Free plan">
          <div>
            <h3 className="plan-name">{free.name}</h3>
            <p className="plan-note">Free forever & No credit card</p>
            <PlanFeatures features={free.billingCycles[cycle].features} />
          </div>
          <Button
            className="plan-action"
            disabled={isCurrent(subscription, 'free') || busy !== null}
            loading={busy === 'free'}
            onClick={() => void chooseFree()}
          >
            {isCurrent(subscription, 'free') ? 'Your Current plan' : 'Continue for free'}
          </Button>
        </section>
      )}
    </div>
  );
}
