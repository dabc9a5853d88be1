import { useId } from 'react';
import type { Settings } from '@spyglass/protocol';
import { useUpdateSettings } from '../../lib/settings';
import { Switch } from '../../ui/switch';
import { SettingsRow, SettingsSection } from './settings-section';

/** The section the spec calls "Settings": the weekly usage report toggle. */
export function PreferencesSection({ settings }: { settings: Settings }) {
  const updateSettings = useUpdateSettings();
  const switchId = useId();
  return (
    <SettingsSection title="Settings">
      <SettingsRow label="Weekly usage report" description="An email every week with your traffic and requests." labelFor={switchId}>
        <Switch
          id={switchId}
          label="Weekly usage report"
          checked={settings.wantsUsageReport}
          onChange={(e) => updateSettings({ wantsUsageReport: e.target.checked })}
        />
      </SettingsRow>
    </SettingsSection>
  );
}
