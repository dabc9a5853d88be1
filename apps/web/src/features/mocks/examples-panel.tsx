import { ChevronRight } from 'lucide-react';
import { Button } from '../../ui/button';
import type { MockExample } from './mock-examples';

/** An 'Examples' help panel: each example with its text and, where it fits, a button to use it. */
export function ExamplesPanel({ title = 'Examples', examples, onUse }: { title?: string; examples: readonly MockExample[]; onUse?(text: string): void }) {
  return (
    <details className="mock-help">
      <summary><ChevronRight size={14} aria-hidden="true" className="mock-help-chevron" />{title}</summary>
      <div className="mock-help-body">
        {examples.map((example) => (
          <div className="mock-example" key={example.title}>
            <div className="mock-example-head">
              <div>
                <div className="mock-example-title">{example.title}</div>
                <div className="mock-section-hint">{example.description}</div>
              </div>
              {onUse && <Button size="sm" onClick={() => onUse(example.text)}>Use</Button>}
            </div>
            <pre className="mock-example-code">{example.text}</pre>
          </div>
        ))}
      </div>
    </details>
  );
}
