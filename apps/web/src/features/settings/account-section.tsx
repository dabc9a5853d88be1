import { useState } from 'react';
import type { Profile } from '@spyglass/protocol';
import { usePublicConfig } from '../../lib/config';
import { Button } from '../../ui/button';
import { ChangePasswordDialog } from './change-password-dialog';
import { DeleteAccountDialog } from './delete-account-dialog';
import { EmailEditor } from './email-editor';
import { SettingsRow, SettingsSection } from './settings-section';

/** Email edit, password change and deletion; all hidden in demo mode (spec 000 §2.5). */
export function AccountSection({ profile }: { profile: Profile }) {
  const [dialog, setDialog] = useState<'password' | 'delete' | null>(null);
  const { demoMode } = usePublicConfig();
  if (demoMode || profile.isDemoUser) return null;
  const close = () => setDialog(null);
  return (
    <SettingsSection title="Account">
      <EmailEditor email={profile.email} />
      {profile.authProvider === 'email' && (
        <SettingsRow label="Password" description="Your other browsers will need to sign in again after a change.">
          <Button onClick={() => setDialog('password')}>Change Password</Button>
        </SettingsRow>
      )}
      <SettingsRow label="Delete Account" description="Deletes your account with its devices, sessions and captured data.">
        <Button variant="danger" onClick={() => setDialog('delete')}>Delete Account</Button>
      </SettingsRow>
      {dialog === 'password' && <ChangePasswordDialog onClose={close} />}
      {dialog === 'delete' && <DeleteAccountDialog userId={profile.id} onClose={close} />}
    </SettingsSection>
  );
}
