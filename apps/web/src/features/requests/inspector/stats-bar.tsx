import { Download } from 'lucide-react';
import { Button } from '../../../ui/button';
import { Spinner } from '../../../ui/spinner';

export interface StatsBarProps {
  count: number;
  total: number;
  selected: number;
  /** Shown while older pages load or a filter or order is computed. */
  busy: boolean;
  /** Opens the export of the selection; absent until exports are available. */
  onExport?: () => void;
}

/** Spec 001: 'Requests: N (Total: M)', or 'Selected X of N requests (Total: M)' with Export. */
export function StatsBar({ count, total, selected, busy, onExport }: StatsBarProps) {
  return (
    <footer className="inspector-stats" aria-live="polite">
      <span className="inspector-stats-text">
        {selected > 0 ? `Selected ${selected} of ${count} requests (Total: ${total})` : `Requests: ${count} (Total: ${total})`}
      </span>
      {busy && <Spinner size={12} />}
      {selected > 0 && onExport && (
        <Button size="sm" variant="ghost" className="inspector-stats-export" icon={<Download size={13} aria-hidden="true" />} onClick={onExport}>
          Export
        </Button>
      )}
    </footer>
  );
}
