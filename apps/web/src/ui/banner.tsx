import { CircleAlert, Info, TriangleAlert, WifiOff } from 'lucide-react';
import type { ReactNode } from 'react';

const ICONS = { warning: TriangleAlert, danger: CircleAlert, info: Info, offline: WifiOff };

/** A full-width strip above the page for a state of the whole app (offline, quota, trial). */
export function Banner({ tone, children, action }: { tone: keyof typeof ICONS; children: ReactNode; action?: ReactNode }) {
  const Icon = ICONS[tone];
  return (
    <div className={`banner banner-${tone}`} role={tone === 'info' ? 'status' : 'alert'}>
      <Icon size={15} aria-hidden="true" className="banner-icon" />
      <span className="banner-text">{children}</span>
      {action}
    </div>
  );
}
