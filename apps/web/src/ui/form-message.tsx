import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import type { ReactNode } from 'react';

const ICONS = { error: CircleAlert, success: CircleCheck, info: Info };

/** An inline notice above or below a form; errors are announced to screen readers at once. */
export function FormMessage({ tone, children }: { tone: 'error' | 'success' | 'info'; children: ReactNode }) {
  const Icon = ICONS[tone];
  return (
    <div className={`form-message form-message-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <Icon size={16} aria-hidden="true" className="form-message-icon" />
      <div>{children}</div>
    </div>
  );
}
