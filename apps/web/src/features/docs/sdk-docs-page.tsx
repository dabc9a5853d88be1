import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';
import readme from '../../../../../packages/sdk/README.md?raw';
import { useDocumentTitle } from '../../lib/document-title';
import './docs.css';

/**
 * /docs/sdk: the SDK's quick start, rendered from the repository's own packages/sdk/README.md at
 * build time, so the page the empty request list's Learn More opens never drifts from the package.
 * The text is ours, and still sanitized: nothing in it may run.
 */
export function SdkDocsPage() {
  useDocumentTitle('SDK quick start');
  const html = useMemo(() => DOMPurify.sanitize(marked.parse(withServerUrl(readme), { async: false })), []);
  return (
    <div className="page docs-page">
      <article className="docs-markdown" dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}

/** The examples name this server instead of a placeholder host. */
const withServerUrl = (text: string) => text.replaceAll('https://spyglass.example.com', window.location.origin);
