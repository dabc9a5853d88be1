import { RESEND_COOLDOWN } from '@spyglass/protocol';
import { CircleCheck, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '../../lib/api';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { Spinner } from '../../ui/spinner';
import { resendVerification } from '../auth/auth.api';
import { useCooldown } from '../auth/use-cooldown';
import { StepFrame } from './step-frame';

export const VERIFIED = 'Your email has been successfully verified! You can now proceed.';
const RESEND_SENT = 'Verification email sent! Please check your inbox.';
const RESEND_FAILED = 'Failed to send verification email. Please try again.';

export type Verification = { state: 'idle' } | { state: 'verifying' } | { state: 'failed'; message: string };

/** Spec 000 §4.2 in onboarding: Next only once the address is verified; resend with a growing cool-down. */
export function VerifyEmailStep({ email, verified, verification, onNext, onBack }: {
  email: string;
  verified: boolean;
  verification: Verification;
  onNext: () => void;
  onBack: () => void;
}) {
  const [presses, setPresses] = useState(0);
  const [sending, setSending] = useState(false);
  const cooldown = useCooldown();

  async function resend() {
    setSending(true);
    try {
      await resendVerification(email);
      toast.success(RESEND_SENT);
    } catch (error) {
      toast.error(error instanceof ApiError && error.status === 429 ? error.message : RESEND_FAILED);
    } finally {
      setSending(false);
      cooldown.start(RESEND_COOLDOWN.startS + presses * RESEND_COOLDOWN.stepS);
      setPresses((n) => n + 1);
    }
  }

  return (
    <StepFrame
      title="Verify your email"
      description={<>We sent a verification link to <strong>{email}</strong>. Open it to confirm that the address is yours.</>}
      onBack={onBack}
      actions={<Button variant="primary" disabled={!verified} onClick={onNext}>Next</Button>}
    >
      {verified ? (
        <FormMessage tone="success">{VERIFIED}</FormMessage>
      ) : verification.state === 'verifying' ? (
        <div className="onboarding-inline" role="status"><Spinner size={16} /> Verifying your email…</div>
      ) : (
        <>
          {verification.state === 'failed' && <FormMessage tone="error">{verification.message}</FormMessage>}
          <div className="onboarding-mail">
            <MailCheck size={28} aria-hidden="true" />
            <p>Waiting for you to open the link. This page notices as soon as you have.</p>
          </div>
          <Button loading={sending} disabled={cooldown.remaining > 0} onClick={() => void resend()}>
            {cooldown.remaining > 0 ? `Resend in ${cooldown.remaining}s` : 'Resend verification email'}
          </Button>
        </>
      )}
      {verified && <CircleCheck className="onboarding-verified-icon" size={32} aria-hidden="true" />}
    </StepFrame>
  );
}
