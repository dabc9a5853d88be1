import type { ReactNode } from 'react';

/** The title row of a screen: "Devices (3)" with its actions at the right. */
export function PageHeader({ title, count, actions }: { title: string; count?: number; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <h1 className="page-title">
        {title}
        {count !== undefined && <span className="page-count" aria-label={`(${count})`}>{count}</span>}
      </h1>
      {actions && <div className="page-actions">{actions}</div>}
    </header>
  );
}
