import * as ContextMenu from '@radix-ui/react-context-menu';
import type { CompactItem } from '@spyglass/protocol';
import { BookmarkPlus, Download, Terminal, Trash2 } from 'lucide-react';

export interface RowMenuProps {
  /** The row right-clicked; the menu acts on the selection, which includes it. */
  item: CompactItem;
  selectedCount: number;
  onExport(): void;
  /** Copy as CURL, offered for a single network item. */
  onCopyAsCurl(item: CompactItem): void;
  /** Save as Mock Route for a single network item; absent where nothing may be mocked. */
  onSaveAsMockRoute?: (item: CompactItem) => void;
  /** Absent where rows may not be deleted (sessions, the public view). */
  onDelete?: () => void;
}

/**
 * The row menu (spec 001 'Request list screen'): export, delete and, for network items only,
 * Save as Mock Route (device views) and Copy as CURL.
 */
export function RowMenu({ item, selectedCount, onExport, onCopyAsCurl, onSaveAsMockRoute, onDelete }: RowMenuProps) {
  const many = selectedCount > 1;
  return (
    <>
      <ContextMenu.Label className="menu-label">{many ? `${selectedCount} requests` : `Request ${item.num}`}</ContextMenu.Label>
      <ContextMenu.Item className="menu-item" onSelect={onExport}>
        <span className="menu-check"><Download size={13} aria-hidden="true" /></span>
        {many ? `Export ${selectedCount} requests` : 'Export'}
      </ContextMenu.Item>
      {!many && item.type === 'network' && onSaveAsMockRoute && (
        <ContextMenu.Item className="menu-item" onSelect={() => onSaveAsMockRoute(item)}>
          <span className="menu-check"><BookmarkPlus size={13} aria-hidden="true" /></span>
          Save as Mock Route
        </ContextMenu.Item>
      )}
      {!many && item.type === 'network' && (
        <ContextMenu.Item className="menu-item" onSelect={() => onCopyAsCurl(item)}>
          <span className="menu-check"><Terminal size={13} aria-hidden="true" /></span>
          Copy as CURL
        </ContextMenu.Item>
      )}
      {onDelete && (
        <>
          <ContextMenu.Separator className="menu-separator" />
          <ContextMenu.Item className="menu-item is-danger" onSelect={onDelete}>
            <span className="menu-check"><Trash2 size={13} aria-hidden="true" /></span>
            {many ? `Delete ${selectedCount} requests` : 'Delete'}
          </ContextMenu.Item>
        </>
      )}
    </>
  );
}
