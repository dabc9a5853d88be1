import { track } from '../../../lib/analytics';
import { usePublicConfig } from '../../../lib/config';

/**
 * The companion app's store links (spec 001 Option 1), each shown only when this server is
 * configured with its URL (APP_STORE_URL, GOOGLE_PLAY_URL), each click counted (spec 000 §7.5).
 */
export function StoreLinks() {
  const { appStoreUrl, googlePlayUrl } = usePublicConfig();
  if (!appStoreUrl && !googlePlayUrl) return null;
  return (
    <div className="connect-store-links">
      {appStoreUrl && (
        <a className="btn btn-secondary btn-sm" href={appStoreUrl} target="_blank" rel="noreferrer" onClick={() => track('download_app_store')}>App Store</a>
      )}
      {googlePlayUrl && (
        <a className="btn btn-secondary btn-sm" href={googlePlayUrl} target="_blank" rel="noreferrer" onClick={() => track('download_google_play')}>Google Play</a>
      )}
    </div>
  );
}
