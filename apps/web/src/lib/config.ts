import { useQuery } from '@tanstack/react-query';
import { PublicConfig } from '@spyglass/protocol';
import { api } from './api';

/** What a server without optional services answers; used until (or if) GET /config fails. */
const FALLBACK_CONFIG: PublicConfig = { googleClientId: null, bookDemoUrl: null, demoMode: false, version: '', shareUrl: '', appStoreUrl: null, googlePlayUrl: null };

export const fetchPublicConfig = () => api.get('/config', PublicConfig);

/** The server's public configuration (Google client id, Book Demo address, demo mode, version). */
export function usePublicConfig(): PublicConfig & { isLoading: boolean } {
  const query = useQuery({ queryKey: ['public-config'], queryFn: fetchPublicConfig, staleTime: Infinity, retry: 1 });
  return { ...(query.data ?? FALLBACK_CONFIG), isLoading: query.isPending };
}
