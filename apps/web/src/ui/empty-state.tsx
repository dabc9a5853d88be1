import type { ReactNode } from 'react';

/** The centred message a list shows when it has nothing (No Devices, No sessions found...). */
export function EmptyState({ icon, title, description, actions, children }: {
  icon?: ReactNode;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="empty-state">
      {icon && <div className="empty-state-icon" aria-hidden="true">{icon}</div>}
      <h2 className="empty-state-title">{title}</h2>
      {description && <p className="empty-state-description">{description}</p>}
      {actions && <div className="empty-state-actions">{actions}</div>}
      {children}
    </div>
  );
}
