import { lazy, Suspense } from 'react';
import { isDemoStudioOn } from '../features/demo-studio/demo-flag';
import { ErrorBoundary } from './error-boundary';
import { Providers } from './providers';
import { AppRoutes } from './router';

// Its own chunk: only demo presenters load the studio (and its screenshot library).
const DemoStudio = lazy(() => import('../features/demo-studio/demo-studio').then((m) => ({ default: m.DemoStudio })));

export function App() {
  return (
    <ErrorBoundary>
      <Providers>
        {isDemoStudioOn()
          ? <Suspense fallback={null}><DemoStudio><AppRoutes /></DemoStudio></Suspense>
          : <AppRoutes />}
      </Providers>
    </ErrorBoundary>
  );
}
