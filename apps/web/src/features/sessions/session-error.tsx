import { History } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '../../ui/empty-state';

/** A session that cannot be shown: not found, no longer shared, or the load failed (spec 001 §8). */
export function SessionError({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <div className="page-body page-body-center" role="alert">
      <EmptyState icon={<History size={22} />} title={message}>{children}</EmptyState>
    </div>
  );
}
