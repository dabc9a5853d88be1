import * as ContextMenu from '@radix-ui/react-context-menu';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Check, Columns3 } from 'lucide-react';
import { IconButton } from '../../../ui/button';
import { defaultColumns, setColumnVisible, type TableColumn } from './columns';

interface VisibilityProps {
  columns: readonly TableColumn[];
  onSaveColumns(columns: TableColumn[]): void;
}

/** One checkbox per column; the menu stays open so that several can be switched in a row. */
export function ColumnVisibilityItems({ kind, columns, onSaveColumns }: VisibilityProps & { kind: 'context' | 'dropdown' }) {
  const Menu = kind === 'context' ? ContextMenu : DropdownMenu;
  return (
    <>
      {columns.map((column) => (
        <Menu.CheckboxItem
          key={column.id}
          className="menu-item"
          checked={column.isVisible}
          onCheckedChange={(checked) => onSaveColumns(setColumnVisible(columns, column.id, checked))}
          onSelect={(event) => event.preventDefault()}
        >
          <span className="menu-check"><Menu.ItemIndicator><Check size={13} aria-hidden="true" /></Menu.ItemIndicator></span>
          {column.label}
        </Menu.CheckboxItem>
      ))}
      <Menu.Separator className="menu-separator" />
      <Menu.Item className="menu-item" onSelect={() => onSaveColumns(defaultColumns())}>
        <span className="menu-check" />Reset columns
      </Menu.Item>
    </>
  );
}

/** The column visibility menu of the toolbar (spec 001: 'A column visibility menu is also available'). */
export function ColumnMenuButton(props: VisibilityProps) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <IconButton label="Columns"><Columns3 size={15} aria-hidden="true" /></IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4} aria-label="Columns">
          <DropdownMenu.Label className="menu-label">Columns</DropdownMenu.Label>
          <ColumnVisibilityItems kind="dropdown" {...props} />
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
