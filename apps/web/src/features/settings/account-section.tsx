import { useState } from 'react';
import type { Profile } from '@spyglass/protocol';
import { usePublicConfig } from '../../lib/config';
import { Button } from '../../ui/button';
import { ChangePasswordDialog } from './change-password-dialog';
import { DeleteAccountDialog } from './delete-account-dialog';
import { ChangeEmailDialog } from './change-email-dialog';
import { SettingsRow, SettingsSection } from './settings-section';

/** Email edit, password change and deletion; all hidden in demo mode (spec 000 §2.5). */
export function AccountSection({ profile }: { profile: Profile }) {
  const [dialog, setDialog] = useState<'email' | 'password' | 'delete' | null>(null);
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const { demoMode } = usePublicConfig();
  if (demoMode || profile.isDemoUser) return null;
  const close = () => setDialog(null);
  return (
    <SettingsSection title="Account">
      <SettingsRow
        label="Email"
        description={pendingEmail ? `${profile.email} · waiting for confirmation of ${pendingEmail}` : profile.email}
      >
        <Button onClick={() => setDialog('email')}>Edit Email</Button>
      </SettingsRow>
      {profile.authProvider === 'email' && (
        <SettingsRow label="Password" description="Your other browsers will need to sign in again after a change.">
          <Button onClick={() => setDialog('password')}>Change Password</Button>
        </SettingsRow>
      )}
      <SettingsRow label="Delete Account" description="Deletes your account with its devices, sessions and captured data.">
        <Button variant="danger" onClick={() => setDialog('delete')}>Delete Account</Button>
      </SettingsRow>
      {dialog === 'email' && <ChangeEmailDialog profile={profile} onClose={close} onRequested={setPendingEmail} />}
      {dialog === 'password' && <ChangePasswordDialog onClose={close} />}
      {dialog === 'delete' && <DeleteAccountDialog userId={profile.id} onClose={close} />}
    </SettingsSection>
  );
}
