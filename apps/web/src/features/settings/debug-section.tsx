import { useState } from 'react';
import { Button } from '../../ui/button';
import { SettingsRow, SettingsSection } from './settings-section';

/**
 * Admins only. The test error is thrown while rendering, so it travels the same path as a real
 * crash: the error boundary's 'Something went wrong' panel and the console.
 */
export function DebugSection() {
  const [crash, setCrash] = useState(false);
  if (crash) throw new Error('Test error from Settings → Debug');
  return (
    <SettingsSection title="Debug">
      <SettingsRow label="Test error" description="Throws an error to check that crashes are caught and reported.">
        <Button onClick={() => setCrash(true)}>Throw Test Error</Button>
      </SettingsRow>
    </SettingsSection>
  );
}
