import { ITEM_CATEGORY_LABELS, ItemCategory } from '@spyglass/protocol';

/** Spec 001 'Request list screen': All, Network, Logs, Events, Screenshots, Mocks, plus analytics events. */
const CATEGORIES = ItemCategory.options;

export function FilterBar({ value, onChange }: { value: ItemCategory; onChange(category: ItemCategory): void }) {
  return (
    <div className="inspector-filters" role="group" aria-label="Filter by type">
      {CATEGORIES.map((category) => (
        <button
          key={category}
          type="button"
          className={`inspector-filter${value === category ? ' is-active' : ''}`}
          aria-pressed={value === category}
          onClick={() => onChange(category)}
        >
          {ITEM_CATEGORY_LABELS[category]}
        </button>
      ))}
    </div>
  );
}
