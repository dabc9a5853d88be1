import { RefreshCw, TriangleAlert } from 'lucide-react';
import { Button } from './button';

/** The generic panel of spec 001 §8: 'Something went wrong', the message, tips and Refresh Page. */
export function ErrorPanel({ message }: { message?: string }) {
  return (
    <div className="error-panel" role="alert">
      <div className="error-panel-card">
        <div className="error-panel-icon" aria-hidden="true"><TriangleAlert size={20} /></div>
        <h1 className="error-panel-title">Something went wrong</h1>
        {message && <p className="error-panel-message">{message}</p>}
        <ul className="error-panel-tips">
          <li>Check your internet connection</li>
          <li>Refresh the page</li>
          <li>Clear your browser cache</li>
        </ul>
        <Button variant="primary" icon={<RefreshCw size={14} aria-hidden="true" />} onClick={() => window.location.reload()}>
          Refresh Page
        </Button>
      </div>
    </div>
  );
}
