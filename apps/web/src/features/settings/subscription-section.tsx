import {
  BILLING_ERRORS, BILLING_PERIOD_THRESHOLDS, CANCEL_REASON_MAX_LENGTH, billingPeriodPercent, canCancel, canManage, isTrialExpired,
  type Subscription,
} from '@spyglass/protocol';
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/api';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { FormMessage } from '../../ui/form-message';
import { cancelSubscription, openCustomerPortal, reactivateSubscription, useSetSubscription } from '../billing/billing.api';
import { usePricingModal } from '../billing/pricing-modal';
import { useAwaitPaidPlan } from '../billing/use-checkout-outcome';
import { SettingsRow, SettingsSection } from './settings-section';
import '../billing/billing.css';

const PLAN_NAMES: Record<Subscription['plan'], string> = { free: 'Free', team: 'Team', pro: 'Pro', enterprise: 'Enterprise' };
const STATUS_NAMES: Record<Subscription['status'], string> = { active: 'Active', trialing: 'Trialing', canceled: 'Canceled', expired: 'Expired' };

const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/**
 * Spec 000 §2.5 and §4.4. Free users see that the product is free, with no subscription controls;
 * everyone else sees plan, status, cycle and period, and Cancel, Reactivate, Manage Subscription
 * or Upgrade Plan as their state allows.
 */
export function SubscriptionSection({ subscription }: { subscription: Subscription }) {
  const [params] = useSearchParams();
  // Back from Checkout: the plan shows once Stripe's webhook reached the server.
  useAwaitPaidPlan(params.get('subscription') === 'success', subscription);
  return (
    <SettingsSection title="Subscription" id="subscription-details">
      {subscription.isFreeUser
        ? <SettingsRow label="Free" description="You can currently use the product completely free of charge" />
        : <SubscriptionDetails subscription={subscription} />}
    </SettingsSection>
  );
}

function SubscriptionDetails({ subscription }: { subscription: Subscription }) {
  const openPricing = usePricingModal();
  const setSubscription = useSetSubscription();
  const [canceling, setCanceling] = useState(false);
  const [busy, setBusy] = useState<'reactivate' | 'portal' | null>(null);
  const chosen = subscription.status === 'active' || subscription.status === 'trialing';
  // Before any plan is chosen the account is in its trial (status expired, trial end ahead).
  const trialOnly = !chosen && subscription.plan === 'free' && subscription.trialEndsAt !== null;

  async function reactivate() {
    setBusy('reactivate');
    try {
      setSubscription(await reactivateSubscription());
      toast.success('Subscription reactivated');
    } catch (error) {
      toast.error(errorMessage(error, BILLING_ERRORS.reactivate));
    } finally {
      setBusy(null);
    }
  }

  async function manage() {
    setBusy('portal');
    try {
      const { url } = await openCustomerPortal();
      if (!url) throw new Error(BILLING_ERRORS.portalUrl);
      window.location.assign(url);
    } catch (error) {
      toast.error(errorMessage(error, BILLING_ERRORS.portalOpen));
      setBusy(null);
    }
  }

  return (
    <>
      <SettingsRow
        label={trialOnly ? 'Free trial' : `${PLAN_NAMES[subscription.plan]} plan`}
        description={<PlanSummary subscription={subscription} trialOnly={trialOnly} />}
      >
        {canManage(subscription) && (
          <Button loading={busy === 'portal'} onClick={() => void manage()}>Manage Subscription</Button>
        )}
        <Button variant="primary" onClick={openPricing}>Upgrade Plan</Button>
      </SettingsRow>
      <BillingPeriod subscription={subscription} />
      {canCancel(subscription) && (
        <SettingsRow label="Cancel subscription" description="You keep access until the end of the billing period.">
          <Button variant="danger" onClick={() => setCanceling(true)}>Cancel Subscription</Button>
        </SettingsRow>
      )}
      {chosen && subscription.canceledAt !== null && subscription.billingPeriodEnd !== null && (
        <SettingsRow
          label="Subscription canceled"
          description={`Canceled on ${formatDate(subscription.canceledAt)}. You have access until ${formatDate(subscription.billingPeriodEnd)}.`}
        >
          <Button variant="primary" loading={busy === 'reactivate'} onClick={() => void reactivate()}>Reactivate</Button>
        </SettingsRow>
      )}
      {canceling && <CancelDialog onClose={() => setCanceling(false)} onCanceled={setSubscription} />}
    </>
  );
}

function PlanSummary({ subscription, trialOnly }: { subscription: Subscription; trialOnly: boolean }) {
  if (trialOnly) {
    return isTrialExpired(subscription)
      ? <>Your trial ended on {formatDate(subscription.trialEndsAt!)}.</>
      : <>Your 14-day free trial ends on {formatDate(subscription.trialEndsAt!)}. Choose a plan to keep using Spyglass after it.</>;
  }
  return (
    <dl className="subscription-facts">
      <div><dt>Status</dt><dd data-testid="subscription-status">{STATUS_NAMES[subscription.status]}</dd></div>
      {subscription.billingCycle && <div><dt>Billing cycle</dt><dd>{subscription.billingCycle === 'monthly' ? 'Monthly' : 'Yearly'}</dd></div>}
      {subscription.status === 'trialing' && subscription.trialEndsAt && <div><dt>Trial ends</dt><dd>{formatDate(subscription.trialEndsAt)}</dd></div>}
    </dl>
  );
}

/** The billing period with its bar: warning above 75 %, danger above 95 % (spec 000 §9). */
function BillingPeriod({ subscription }: { subscription: Subscription }) {
  const percent = billingPeriodPercent(subscription);
  if (percent === null || !subscription.billingPeriodStart || !subscription.billingPeriodEnd) return null;
  const tone = percent > BILLING_PERIOD_THRESHOLDS.danger ? 'danger' : percent > BILLING_PERIOD_THRESHOLDS.warning ? 'warning' : 'normal';
  return (
    <SettingsRow
      label="Billing period"
      description={(
        <div className="billing-period">
          <span>{formatDate(subscription.billingPeriodStart)} – {formatDate(subscription.billingPeriodEnd)}</span>
          <div
            className={`billing-period-bar is-${tone}`}
            role="progressbar"
            aria-label="Billing period elapsed"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(percent)}
          >
            <span style={{ width: `${percent}%` }} />
          </div>
        </div>
      )}
    />
  );
}

function CancelDialog({ onClose, onCanceled }: { onClose: () => void; onCanceled: (s: Subscription) => void }) {
  const formId = useId();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (reason.length > CANCEL_REASON_MAX_LENGTH) {
      setProblem(`The reason can be at most ${CANCEL_REASON_MAX_LENGTH} characters long`);
      return;
    }
    setPending(true);
    setProblem(null);
    try {
      onCanceled(await cancelSubscription(reason.trim()));
      toast.success('Your subscription is canceled. You keep access until the end of the billing period.');
      onClose();
    } catch (error) {
      setProblem(errorMessage(error, 'Failed to cancel subscription'));
      setPending(false);
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Cancel Subscription"
      description="Your plan stays active until the end of the current billing period. You can reactivate it until then."
      actions={(
        <>
          <Button variant="ghost" onClick={onClose}>Keep Subscription</Button>
          <Button type="submit" form={formId} variant="danger" loading={pending}>Cancel Subscription</Button>
        </>
      )}
    >
      <form id={formId} className="settings-dialog-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label className="field-label" htmlFor={reasonId}>Why are you canceling? (optional)</label>
          <textarea id={reasonId} className="input cancel-reason" rows={4} value={reason} onChange={(e) => setReason(e.target.value)} />
          <div className="field-hint">{reason.length} / {CANCEL_REASON_MAX_LENGTH}</div>
        </div>
        {problem && <FormMessage tone="error">{problem}</FormMessage>}
      </form>
    </Dialog>
  );
}
