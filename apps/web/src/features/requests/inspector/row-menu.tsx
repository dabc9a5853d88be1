import * as ContextMenu from '@radix-ui/react-context-menu';
import type { CompactItem } from '@spyglass/protocol';
import { Trash2 } from 'lucide-react';

export interface RowMenuProps {
  /** The row right-clicked; the menu acts on the selection, which includes it. */
  item: CompactItem;
  selectedCount: number;
  /** Absent where rows may not be deleted (sessions, the public view). */
  onDelete?: () => void;
}

/**
 * The row menu (spec 001 'Request list screen'): export, delete and, for network items only,
 * Save as Mock Route and Copy as CURL.
 */
export function RowMenu({ selectedCount, onDelete }: RowMenuProps) {
  const many = selectedCount > 1;
  return (
    <>
      <ContextMenu.Label className="menu-label">{many ? `${selectedCount} requests` : 'Request'}</ContextMenu.Label>
      {onDelete && (
        <ContextMenu.Item className="menu-item is-danger" onSelect={onDelete}>
          <span className="menu-check"><Trash2 size={13} aria-hidden="true" /></span>
          {many ? `Delete ${selectedCount} requests` : 'Delete'}
        </ContextMenu.Item>
      )}
    </>
  );
}
