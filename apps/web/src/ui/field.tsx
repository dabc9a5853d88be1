import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** One message, or several shown one per line (the password rules of spec 000 §5). */
  error?: string | string[] | null;
  hint?: ReactNode;
  /** Shown at the right of the label (e.g. a "Reset password" link). */
  labelAside?: ReactNode;
}

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, hint, labelAside, id, className, ...rest },
  ref,
) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errors = error ? (Array.isArray(error) ? error : [error]) : [];
  const describedBy = [errors.length > 0 && `${inputId}-error`, hint && `${inputId}-hint`].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <div className="field-label-row">
        <label className="field-label" htmlFor={inputId}>{label}</label>
        {labelAside}
      </div>
      <input
        ref={ref}
        id={inputId}
        className="input"
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={describedBy}
        {...rest}
      />
      {hint && errors.length === 0 && <div className="field-hint" id={`${inputId}-hint`}>{hint}</div>}
      {errors.length > 0 && (
        <ul className="field-error" id={`${inputId}-error`}>
          {errors.map((message) => <li key={message}>{message}</li>)}
        </ul>
      )}
    </div>
  );
});
