import { useEffect, useRef, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { COPY_INDICATOR_MS } from '@spyglass/protocol';
import { track } from '../../lib/analytics';
import { Button } from '../../ui/button';
import { SettingsRow, SettingsSection } from './settings-section';

export function GeneralSection({ apiKey }: { apiKey: string }) {
  return (
    <SettingsSection title="General">
      <SettingsRow label="API Key" description="Devices connect to your account with this key.">
        <div className="api-key">
          <code className="api-key-value" aria-label="API Key">{apiKey}</code>
          <CopyApiKeyButton apiKey={apiKey} />
        </div>
      </SettingsRow>
    </SettingsSection>
  );
}

function CopyApiKeyButton({ apiKey }: { apiKey: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(apiKey);
    } catch (error) {
      console.error('Copying the API key failed', error);
      return;
    }
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), COPY_INDICATOR_MS);
    track('api_key_copied');
  };

  return (
    <Button
      variant="secondary"
      icon={copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
      onClick={() => void copy()}
    >
      {copied ? 'Copied!' : 'Copy'}
    </Button>
  );
}
