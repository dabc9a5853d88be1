import { useQueryClient } from '@tanstack/react-query';
import { ACCOUNT_QUERY_KEY } from '../../lib/account';
import { useLiveMessage } from '../../lib/live';
import { USAGE_QUERY_KEY } from './billing.api';

/**
 * The quota banner and Settings' 'Data Usage Exceeded' panel follow the account's traffic live:
 * when the server says the quota was reached or lifted (`quota_changed`), the subscription and
 * the usage figures are read again, on whatever screen the user is.
 */
export function useQuotaLiveSync(): void {
  const queryClient = useQueryClient();
  useLiveMessage('quota_changed', () => {
    void queryClient.invalidateQueries({ queryKey: ACCOUNT_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: USAGE_QUERY_KEY });
  });
}
