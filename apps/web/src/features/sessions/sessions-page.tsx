import { History, Smartphone } from 'lucide-react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../lib/document-title';
import { EmptyState } from '../../ui/empty-state';
import { PageHeader } from '../../ui/page-header';

/**
 * /sessions. Sessions are saved from a device's requests (a later issue); until then the list is
 * its empty state of spec 001: No sessions found, Open a device to record a session, Go to devices.
 */
export function SessionsPage() {
  useDocumentTitle('Sessions');
  return (
    <div className="page">
      <PageHeader title="Sessions" count={0} />
      <div className="page-body page-body-center">
        <EmptyState
          icon={<History size={22} />}
          title="No sessions found"
          description="Open a device to record a session"
          actions={<Link className="btn btn-primary" to="/devices"><Smartphone size={14} aria-hidden="true" />Go to devices</Link>}
        />
      </div>
    </div>
  );
}
