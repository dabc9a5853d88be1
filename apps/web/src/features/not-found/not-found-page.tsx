import { Link } from 'react-router';
import { useDocumentTitle } from '../../lib/document-title';

/** Any signed-in address that names no screen (spec 000 §2.2). */
export function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <div className="not-found">
      <div className="not-found-code" aria-hidden="true">404</div>
      <h1 className="not-found-title">Page Not Found</h1>
      <p className="not-found-text">The page you are looking for does not exist or has moved.</p>
      <Link className="btn btn-primary" to="/">Return to Home</Link>
    </div>
  );
}
