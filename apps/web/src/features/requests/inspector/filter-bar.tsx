import { ITEM_CATEGORY_LABELS, ItemCategory } from '@spyglass/protocol';
import { Activity, ChartNoAxesColumn, Globe, Image, ScrollText, Zap, type LucideIcon } from 'lucide-react';
import { Tooltip } from '../../../ui/tooltip';

/** Spec 001 'Request list screen': All, Network, Logs, Events, Screenshots, Mocks, plus analytics events. */
const CATEGORIES = ItemCategory.options;

/** The icons of the table's Type column (and its mocked mark), so a compact filter reads like the rows it keeps. */
const CATEGORY_ICONS: Readonly<Record<Exclude<ItemCategory, 'all'>, LucideIcon>> = {
  network: Globe,
  log: ScrollText,
  event: Activity,
  screenshot: Image,
  mocks: Zap,
  firebaseAnalytics: ChartNoAxesColumn,
};

export interface FilterBarProps {
  value: ItemCategory;
  onChange(category: ItemCategory): void;
  /** In a narrow toolbar each filter but All shows its icon, with its name as tooltip and accessible name. */
  iconOnly?: boolean;
}

export function FilterBar({ value, onChange, iconOnly = false }: FilterBarProps) {
  return (
    <div className={`inspector-filters${iconOnly ? ' is-icon-only' : ''}`} role="group" aria-label="Filter by type">
      {CATEGORIES.map((category) => {
        const label = ITEM_CATEGORY_LABELS[category];
        const Icon = category === 'all' || !iconOnly ? null : CATEGORY_ICONS[category];
        const button = (
          <button
            key={category}
            type="button"
            className={`inspector-filter${value === category ? ' is-active' : ''}${Icon ? ' is-icon' : ''}`}
            aria-pressed={value === category}
            aria-label={Icon ? label : undefined}
            onClick={() => onChange(category)}
          >
            {Icon ? <Icon size={14} aria-hidden="true" /> : label}
          </button>
        );
        return Icon ? <Tooltip key={category} content={label}>{button}</Tooltip> : button;
      })}
    </div>
  );
}
