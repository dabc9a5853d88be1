import { useEffect } from 'react';
import { useAuth } from '../lib/auth';
import { applyTheme } from '../lib/theme';

/** The signed-in user's theme setting drives `data-theme`; signed-out screens follow the system. */
export function useAppliedTheme(): void {
  const theme = useAuth().profile?.settings.theme;
  useEffect(() => {
    if (theme) applyTheme(theme);
  }, [theme]);
}
