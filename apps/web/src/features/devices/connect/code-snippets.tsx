import { useState } from 'react';
import { toast } from 'sonner';
import { track } from '../../../lib/analytics';
import { CopyButton } from '../../../ui/copy-button';
import type { Snippet } from './snippets';

/** Option 2 of the connect screen: one tab per SDK, each snippet with a copy button. */
export function CodeSnippets({ snippets }: { snippets: readonly Snippet[] }) {
  const [active, setActive] = useState(0);
  const snippet = snippets[active] ?? snippets[0]!;
  return (
    <div className="snippets">
      <div className="snippet-tabs" role="tablist" aria-label="Platform">
        {snippets.map((s, i) => (
          <button
            key={s.platform}
            type="button"
            role="tab"
            id={`snippet-tab-${s.platform}`}
            aria-selected={i === active}
            aria-controls="snippet-panel"
            className={`snippet-tab${i === active ? ' is-active' : ''}`}
            onClick={() => setActive(i)}
          >
            {s.label}
          </button>
        ))}
      </div>
      <div id="snippet-panel" role="tabpanel" aria-labelledby={`snippet-tab-${snippet.platform}`} className="snippet-panel">
        <p className="snippet-hint">{snippet.hint}</p>
        <div className="snippet-code">
          <pre><code aria-label={`${snippet.label} snippet`}>{snippet.code}</code></pre>
          <div className="snippet-copy">
            <CopyButton
              size="sm"
              text={snippet.code}
              label={`Copy ${snippet.label} snippet`}
              onCopied={() => {
                toast.success('Copied to clipboard');
                track('code_snippet_copied', { platform: snippet.platform, language: snippet.language });
              }}
            />
          </div>
        </div>
      </div>
    </div>
  );
}
