import { CircleHelp } from 'lucide-react';
import { useState } from 'react';
import { IconButton } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { MAP_REMOTE_EXAMPLES } from './mock-examples';

/**
 * The mock tooling help (spec 002 §2): 'Mocking a request' (click Mock, enter the data, click
 * Mock; '*' wildcards) and the general explanation of the modes.
 */
export function MockingHelp({ label = 'Mocking a request' }: { label?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <IconButton label={label} onClick={() => setOpen(true)}>
        <CircleHelp size={15} aria-hidden="true" />
      </IconButton>
      <Dialog open={open} onOpenChange={setOpen} title="Mocking a request" size="md">
        <ol className="mock-help-steps">
          <li>Click <strong>Enable Mock ⚡</strong> on a captured request, or add a mocked route.</li>
          <li>Enter the data the app should receive: status code, headers and body.</li>
          <li>Turn the mock on: the device answers its next matching request with it.</li>
        </ol>
        <div className="mock-help-section">
          <div className="mock-section-title">Wildcards</div>
          <p className="mock-section-hint">'*' stands for any text in the path or in a query value.</p>
          <pre className="mock-example-code">{'https://api.example.com/users/*\nhttps://api.example.com/todos?page=*'}</pre>
        </div>
        <div className="mock-help-section">
          <div className="mock-section-title">Modes</div>
          <p className="mock-section-hint">
            <strong>Default</strong> is response mocking: the device answers with a static response, or with one a
            dynamic handler computes from the request. <strong>Map Remote</strong> is request mocking: the request is
            sent to another endpoint instead.
          </p>
          {MAP_REMOTE_EXAMPLES.map((example) => (
            <div key={example.title}>
              <div className="mock-example-title">{example.title}</div>
              <pre className="mock-example-code">{example.text}</pre>
            </div>
          ))}
        </div>
      </Dialog>
    </>
  );
}
