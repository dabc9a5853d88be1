import { Toaster as SonnerToaster } from 'sonner';
import { TOAST_DURATION_MS, type Theme } from '@spyglass/protocol';
import { useResolvedTheme } from '../lib/theme';

/**
 * Toasts of spec 000 §9: 3000 ms unless a call says otherwise; success, error, info and warning
 * (`toast.success(...)` etc. from `sonner`). Colours come from the theme variables in ui.css.
 */
export function Toaster({ theme }: { theme: Theme }) {
  const resolved = useResolvedTheme(theme);
  return (
    <SonnerToaster
      theme={resolved}
      position="bottom-right"
      duration={TOAST_DURATION_MS}
      closeButton
      toastOptions={{ className: 'toast' }}
    />
  );
}
