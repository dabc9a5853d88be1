import { track } from '../../lib/analytics';
import { CopyButton } from '../../ui/copy-button';
import { SettingsRow, SettingsSection } from './settings-section';

export function GeneralSection({ apiKey }: { apiKey: string }) {
  return (
    <SettingsSection title="General">
      <SettingsRow label="API Key" description="Devices connect to your account with this key.">
        <div className="api-key">
          <code className="api-key-value" aria-label="API Key">{apiKey}</code>
          <CopyButton text={apiKey} onCopied={() => track('api_key_copied')} />
        </div>
      </SettingsRow>
    </SettingsSection>
  );
}
