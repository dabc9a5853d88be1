import { useSyncExternalStore } from 'react';
import type { Theme } from '@spyglass/protocol';

/**
 * The theme lives in `data-theme` on <html>: `dark` or `light` force a palette, no attribute
 * (`default`) follows the system through prefers-color-scheme (see styles/theme.css).
 */
export function applyTheme(theme: Theme): void {
  if (theme === 'default') clearThemeAttribute();
  else document.documentElement.setAttribute('data-theme', theme);
}

export function clearThemeAttribute(): void {
  document.documentElement.removeAttribute('data-theme');
}

const CYCLE: Record<Theme, Theme> = { default: 'dark', dark: 'light', light: 'default' };

/** Spec 000 §4.7: default → dark → light → default. */
export const nextTheme = (theme: Theme): Theme => CYCLE[theme];

export const THEME_LABELS: Record<Theme, string> = { default: 'System', dark: 'Dark', light: 'Light' };

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

function subscribeSystemScheme(listener: () => void): () => void {
  const query = darkQuery();
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

/** The palette actually on screen, for components that cannot read CSS variables (toasts, editors). */
export function useResolvedTheme(theme: Theme): 'light' | 'dark' {
  const systemDark = useSyncExternalStore(subscribeSystemScheme, () => darkQuery().matches);
  if (theme === 'default') return systemDark ? 'dark' : 'light';
  return theme;
}
