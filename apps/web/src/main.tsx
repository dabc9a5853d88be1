import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { prefetchForAddress } from './features/sessions/session-prefetch';
import { readStoredProfile } from './lib/storage';
import { applyTheme } from './lib/theme';
import './styles/index.css';

// The last known theme is applied before the first paint, so a dark-theme user never sees a white flash.
applyTheme(readStoredProfile()?.settings.theme ?? 'default');

// Alongside the app's own first calls, not after its first render (bench 51).
prefetchForAddress(window.location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
