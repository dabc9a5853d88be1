import { LogOut } from 'lucide-react';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useAuth } from '../../lib/auth';
import { usePublicConfig } from '../../lib/config';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { PricingPlans } from './pricing-plans';

const FAQ: Array<{ question: string; answer: string }> = [
  { question: 'What counts as traffic?', answer: 'The size of everything your devices send to Spyglass: requests with their bodies, logs, events and screenshots.' },
  { question: 'What happens when I reach my limit?', answer: 'New requests are refused until the next billing period or an upgrade. Everything already captured stays readable.' },
  { question: 'Can I change or cancel my plan later?', answer: 'Yes. Switch plans or cancel any time from Settings; after cancelling you keep access until the end of the billing period.' },
  { question: 'Do I need a credit card for the trial?', answer: 'No. The 14-day free trial needs no credit card.' },
];

/** Spec 000 §4.5: monthly, the latest payment; annual, a full refund within 30 days. */
const REFUND_POLICY = 'Monthly plans: we refund your latest payment. Annual plans: a full refund within 30 days of purchase.';

const PricingModalContext = createContext<(() => void) | null>(null);

/** Opens the pricing modal from anywhere in the signed-in app (banners, panels, settings). */
export function usePricingModal(): () => void {
  const open = useContext(PricingModalContext);
  if (!open) throw new Error('usePricingModal must be used inside <PricingModalProvider>');
  return open;
}

export function PricingModalProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const show = useCallback(() => setOpen(true), []);
  return (
    <PricingModalContext.Provider value={show}>
      {children}
      {open && <PricingModal onClose={() => setOpen(false)} />}
    </PricingModalContext.Provider>
  );
}

/** The pricing modal: plans, FAQ, refund policy, custom pricing contact and logout. */
function PricingModal({ onClose }: { onClose: () => void }) {
  const { subscription, logout } = useAuth();
  const { bookDemoUrl } = usePublicConfig();
  const origin = window.location.origin;
  const checkoutReturn = useMemo(() => ({
    successUrl: `${origin}/settings?subscription=success#subscription-details`,
    cancelUrl: `${origin}/settings?subscription=canceled#subscription-details`,
  }), [origin]);

  return (
    <Dialog open onOpenChange={(next) => !next && onClose()} title="Choose your plan" size="xl"
      description="Plans are billed by traffic volume. Every paid plan starts with a 14-day free trial, no credit card needed.">
      <PricingPlans subscription={subscription} checkoutReturn={checkoutReturn} onFreeChosen={onClose} />
      <div className="pricing-more">
        <section className="pricing-faq" aria-labelledby="pricing-faq-title">
          <h3 id="pricing-faq-title" className="pricing-more-title">FAQ</h3>
          {FAQ.map((item) => (
            <details key={item.question} className="pricing-faq-item">
              <summary>{item.question}</summary>
              <p>{item.answer}</p>
            </details>
          ))}
        </section>
        <div className="pricing-side">
          <section aria-labelledby="pricing-refund-title">
            <h3 id="pricing-refund-title" className="pricing-more-title">Refund policy</h3>
            <p className="pricing-more-text">{REFUND_POLICY}</p>
          </section>
          <section aria-labelledby="pricing-custom-title">
            <h3 id="pricing-custom-title" className="pricing-more-title">Custom pricing</h3>
            <p className="pricing-more-text">
              More traffic, longer history or invoices for procurement?{' '}
              {bookDemoUrl ? <a href={bookDemoUrl} target="_blank" rel="noreferrer">Contact us</a> : 'Contact us'} for a plan that fits your team.
            </p>
          </section>
          <Button variant="ghost" size="sm" icon={<LogOut size={14} aria-hidden="true" />} onClick={() => void logout()}>Logout</Button>
        </div>
      </div>
    </Dialog>
  );
}
