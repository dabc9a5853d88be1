import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { AuthProvider } from '../lib/auth';
import { useSettings } from '../lib/settings';
import { Toaster } from '../ui/toaster';
import { TooltipProvider } from '../ui/tooltip';
import { createQueryClient } from './query-client';

function ThemedToaster() {
  return <Toaster theme={useSettings().theme} />;
}

/** Everything the screens rely on: server state, the signed-in user, routing, tooltips and toasts. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <BrowserRouter>
          <TooltipProvider>
            {children}
            <ThemedToaster />
          </TooltipProvider>
        </BrowserRouter>
      </AuthProvider>
    </QueryClientProvider>
  );
}
