import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { useAuth } from '../../lib/auth';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Logo } from '../../ui/logo';

/** Spec 000 §2.2: a locked user sees only this blocking dialog, with Logout. */
export function AccountLocked() {
  const { logout } = useAuth();
  const [leaving, setLeaving] = useState(false);
  return (
    <div className="locked-screen">
      <div className="locked-brand"><Logo /></div>
      <Dialog
        open
        blocking
        title="Account Locked"
        description="Your account has been locked. Please contact support to unlock."
        actions={(
          <Button
            variant="primary"
            icon={<LogOut size={14} aria-hidden="true" />}
            loading={leaving}
            onClick={() => {
              setLeaving(true);
              void logout();
            }}
          >
            Logout
          </Button>
        )}
      />
    </div>
  );
}
