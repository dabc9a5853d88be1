import { SimulatedRequest, type MockData } from '@spyglass/protocol';
import { Play } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { Button } from '../../../ui/button';
import { Switch } from '../../../ui/switch';
import { CodeEditor } from '../editor/code-editor';
import { simulateMockedRoute } from '../mocks.api';
import { sampleUrlFor } from './route-draft';
import { errorOutput, simulatorOutput, type OutputLine } from './simulator-output';

/** The simulator's starting request definition (spec 002 §3: url, body, headers, method). */
export function initialDefinition(mockData: Pick<MockData, 'mockedUrl' | 'method'>): string {
  return JSON.stringify({ url: sampleUrlFor(mockData.mockedUrl), method: mockData.method, headers: {}, body: null }, null, 2);
}

/**
 * Mock API simulator (spec 002 §2, §4): off, on, simulating ('Simulating...'), result in its
 * console. It runs the editor's current mock data on the server's sandbox; a route must be saved
 * first, since simulate is an action on a saved route.
 */
export function SimulatorPanel({ routeId, mockData, onSimulated }: { routeId: string | null; mockData: MockData; onSimulated(): void }) {
  const [on, setOn] = useState(false);
  const [definition, setDefinition] = useState(() => initialDefinition(mockData));
  const [running, setRunning] = useState(false);
  const [output, setOutput] = useState<OutputLine[] | null>(null);

  async function simulate() {
    if (!routeId) return;
    let request: SimulatedRequest;
    try {
      const parsed = SimulatedRequest.safeParse(JSON.parse(definition));
      if (!parsed.success) {
        setOutput(errorOutput(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'request'}: ${issue.message}`).join('; ')));
        return;
      }
      request = parsed.data;
    } catch (error) {
      setOutput(errorOutput(error instanceof Error ? error.message : String(error)));
      return;
    }
    setRunning(true);
    try {
      const result = await simulateMockedRoute(routeId, { request, mockData: { ...mockData, consoleLog: [] } });
      setOutput(simulatorOutput(result));
      onSimulated();
    } catch (error) {
      setOutput(errorOutput(errorMessage(error, 'Failed to simulate mocked route')));
    } finally {
      setRunning(false);
    }
  }

  return (
    <section className="mock-simulator" aria-label="Mock API simulator">
      <div className="mock-simulator-head">
        <div>
          <div className="mock-section-title">Mock API simulator</div>
          <div className="mock-section-hint">Try the route with a request before a device sends one.</div>
        </div>
        <Switch label="Simulator" checked={on} onChange={(event) => setOn(event.target.checked)} />
      </div>
      {on && (
        <>
          <CodeEditor label="Simulated request" value={definition} onChange={setDefinition} language="json" height="140px" />
          <div className="mock-simulator-actions">
            <Button variant="primary" size="sm" icon={<Play size={14} aria-hidden="true" />} disabled={!routeId || running} aria-busy={running || undefined} onClick={() => void simulate()}>
              {running ? 'Simulating...' : 'Simulate'}
            </Button>
            {!routeId && <span className="mock-section-hint">Save the route to simulate it.</span>}
          </div>
          <div className="mock-simulator-output" role="log" aria-label="Simulator output">
            {output === null
              ? <div className="mock-console-empty">No logs yet</div>
              : output.map((line, index) => <pre key={index} className={`mock-output-line is-${line.tone}`}>{line.text}</pre>)}
          </div>
        </>
      )}
    </section>
  );
}
