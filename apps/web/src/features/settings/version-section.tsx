import { CLIENT_BUILD, CLIENT_VERSION } from '@spyglass/protocol';
import { SettingsSection } from './settings-section';
import { useServerVersion } from './settings.api';

export function VersionSection() {
  const server = useServerVersion();
  const serverVersion = server.data ?? (server.isError ? 'unavailable' : '…');
  return (
    <SettingsSection title="Version">
      <dl className="settings-versions">
        <dt>Client version</dt>
        <dd>{CLIENT_VERSION}</dd>
        <dt>Client build</dt>
        <dd>{CLIENT_BUILD}</dd>
        <dt>Server version</dt>
        <dd>{serverVersion}</dd>
      </dl>
    </SettingsSection>
  );
}
