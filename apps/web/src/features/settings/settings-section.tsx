import { useId, type ReactNode } from 'react';

/** One titled card of the settings page; the heading names the region for assistive technology. */
export function SettingsSection({ title, id, children }: { title: string; id?: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="settings-section" id={id} aria-labelledby={headingId}>
      <h2 id={headingId} className="settings-section-title">{title}</h2>
      <div className="settings-section-body">{children}</div>
    </section>
  );
}

/**
 * A label and description on the left, the control on the right. With `labelFor` (the control's
 * id) the label is the control's own: a click on it flips a switch, as on a native checkbox.
 */
export function SettingsRow({ label, description, labelFor, children }: { label: ReactNode; description?: ReactNode; labelFor?: string; children?: ReactNode }) {
  return (
    <div className="settings-row">
      <div className="settings-row-text">
        {labelFor ? <label className="settings-row-label" htmlFor={labelFor}>{label}</label> : <div className="settings-row-label">{label}</div>}
        {description && <div className="settings-row-description">{description}</div>}
      </div>
      {children && <div className="settings-row-control">{children}</div>}
    </div>
  );
}
