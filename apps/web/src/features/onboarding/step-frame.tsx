import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../ui/button';

/** One onboarding step: its heading, its content, Back (where allowed) and its own actions. */
export function StepFrame({ title, description, children, actions, onBack }: {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  onBack?: (() => void) | null;
}) {
  return (
    <section className="onboarding-step" aria-labelledby="onboarding-step-title">
      <h1 id="onboarding-step-title" className="onboarding-title">{title}</h1>
      {description && <p className="onboarding-description">{description}</p>}
      {children && <div className="onboarding-body">{children}</div>}
      {(onBack || actions) && (
        <div className="onboarding-actions">
          {onBack ? <Button variant="ghost" icon={<ArrowLeft size={14} aria-hidden="true" />} onClick={onBack}>Back</Button> : <span />}
          <div className="onboarding-actions-main">{actions}</div>
        </div>
      )}
    </section>
  );
}
