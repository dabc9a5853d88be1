import type { InputHTMLAttributes } from 'react';

/** A toggle switch: a checkbox with role switch, so it keeps native keyboard and form behaviour. */
export function Switch({ label, className, ...rest }: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: string }) {
  return (
    <label className={['switch', className].filter(Boolean).join(' ')}>
      <input type="checkbox" role="switch" aria-label={label} {...rest} />
      <span className="switch-track" aria-hidden="true" />
    </label>
  );
}
