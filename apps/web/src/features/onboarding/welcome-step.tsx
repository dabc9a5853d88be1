import { ArrowRight } from 'lucide-react';
import { Button } from '../../ui/button';
import { Showcase } from './showcase';

/** Spec 000 §2.4 welcome: the showcase and Start Debugging. */
export function WelcomeStep({ onStart }: { onStart: () => void }) {
  return (
    <section className="onboarding-welcome" aria-labelledby="onboarding-welcome-title">
      <div className="welcome-copy">
        <h1 id="onboarding-welcome-title" className="onboarding-title welcome-title">See your app's traffic, live.</h1>
        <p className="onboarding-description">
          Spyglass shows the network requests, logs, events and screenshots of your iOS and Android apps in your browser the
          moment they happen. Mock a response in one click and share what you found with your team.
        </p>
        <Button variant="primary" size="lg" onClick={onStart}>Start Debugging<ArrowRight size={16} aria-hidden="true" /></Button>
      </div>
      <Showcase label="Pixel 8 · Shop app" />
    </section>
  );
}
