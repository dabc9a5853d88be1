import { SquareTerminal, Table2 } from 'lucide-react';
import { IconButton } from '../../../ui/button';
import type { ViewMode } from './use-inspector-settings';

/** Spec 001 'Request list screen': the table and console view toggles. */
export function ViewToggle({ value, onChange }: { value: ViewMode; onChange(mode: ViewMode): void }) {
  return (
    <div className="inspector-segmented" role="group" aria-label="View">
      <IconButton label="Table view" pressed={value === 'table'} onClick={() => onChange('table')}>
        <Table2 size={14} aria-hidden="true" />
      </IconButton>
      <IconButton label="Console view" pressed={value === 'console'} onClick={() => onChange('console')}>
        <SquareTerminal size={14} aria-hidden="true" />
      </IconButton>
    </div>
  );
}
