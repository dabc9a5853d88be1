import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  onOpenChange?: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom right. */
  actions?: ReactNode;
  /** A blocking dialog cannot be closed by Escape, a click outside or a close button. */
  blocking?: boolean;
  size?: 'sm' | 'md' | 'lg' | 'xl';
}

/** A modal dialog: focus is trapped inside, the page behind is inert, Escape closes it unless blocking. */
export function Dialog({ open, onOpenChange, title, description, children, actions, blocking = false, size = 'sm' }: DialogProps) {
  const prevent = (event: Event) => event.preventDefault();
  return (
    <RadixDialog.Root open={open} onOpenChange={blocking ? undefined : onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={`dialog dialog-${size}`}
          onEscapeKeyDown={blocking ? prevent : undefined}
          onPointerDownOutside={blocking ? prevent : undefined}
          onInteractOutside={blocking ? prevent : undefined}
          // Radix wires the description itself; without one it must be told there is none.
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="dialog-header">
            <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
            {!blocking && (
              <RadixDialog.Close className="icon-btn dialog-close" aria-label="Close">
                <X size={16} aria-hidden="true" />
              </RadixDialog.Close>
            )}
          </div>
          {description && <RadixDialog.Description className="dialog-description">{description}</RadixDialog.Description>}
          {children && <div className="dialog-body">{children}</div>}
          {actions && <div className="dialog-actions">{actions}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
