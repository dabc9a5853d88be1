import { Rocket } from 'lucide-react';
import { Button } from '../../ui/button';
import { StepFrame } from './step-frame';

/** Spec 000 §2.4 get started: 'Let's log!' completes the onboarding. */
export function GetStartedStep({ completing, onComplete, onBack }: { completing: boolean; onComplete: () => void; onBack: () => void }) {
  return (
    <StepFrame
      title="You're all set"
      description="Your device is connected. Open the dashboard to watch its requests, logs and events as they happen."
      onBack={onBack}
      actions={<Button variant="primary" size="lg" loading={completing} onClick={onComplete}>Let's log!</Button>}
    >
      <div className="onboarding-get-started"><Rocket size={40} aria-hidden="true" /></div>
    </StepFrame>
  );
}
