import { useId, type ReactNode } from 'react';

/** A row of tabs over one panel (ARIA tabs pattern: arrow keys move between tabs). */
export function DetailsTabs<T extends string>({ label, tabs, active, onChange, extra, children }: {
  label: string;
  tabs: readonly T[];
  active: T;
  onChange(tab: T): void;
  /** Shown at the right end of the tab row (the response status). */
  extra?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  const move = (from: number, step: number) => {
    const next = tabs[(from + step + tabs.length) % tabs.length]!;
    onChange(next);
    document.getElementById(`${id}-${next}`)?.focus();
  };
  return (
    <div className="details-pane">
      <div className="details-tab-row">
        <span className="details-pane-title">{label}</span>
        <div className="details-tabs" role="tablist" aria-label={label}>
          {tabs.map((tab, index) => (
            <button
              key={tab}
              id={`${id}-${tab}`}
              type="button"
              role="tab"
              className="details-tab"
              aria-selected={tab === active}
              aria-controls={`${id}-panel`}
              tabIndex={tab === active ? 0 : -1}
              onClick={() => onChange(tab)}
              onKeyDown={(event) => {
                if (event.key === 'ArrowRight') move(index, 1);
                else if (event.key === 'ArrowLeft') move(index, -1);
              }}
            >
              {tab}
            </button>
          ))}
        </div>
        {extra}
      </div>
      <div className="details-tab-panel" role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${active}`}>
        {children}
      </div>
    </div>
  );
}
