import { describe, expect, it } from 'vitest';
import { errorOutput, simulatorOutput } from './simulator-output';

const base = { url: 'https://api.example.com/todos?offset=1', pattern: 'https://api.example.com/todos*', explanation: '', logs: [], durationMs: 1 };

describe('simulator output (spec 002 §2)', () => {
  it('says the URL matches, then the logs and the computed answer', () => {
    const lines = simulatorOutput({
      ...base, matches: true,
      logs: [{ time: '2026-01-01T00:00:00.000Z', message: 'offset 1' }],
      response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"offset":1}' },
    }).map((l) => l.text);
    expect(lines).toEqual(['URL matches pattern', '> offset 1', 'Status: 200', 'Headers:\n  Content-Type: application/json', 'Body:\n{\n  "offset": 1\n}']);
  });

  it('shows the request URL and the pattern when they do not match', () => {
    const lines = simulatorOutput({ ...base, matches: false, url: 'https://x.example/a', pattern: 'https://y.example/*' }).map((l) => l.text);
    expect(lines).toEqual(['Request URL does not match pattern', 'Request URL: https://x.example/a', 'Pattern: https://y.example/*']);
  });

  it('prints a handler failure as Error: {message}', () => {
    expect(simulatorOutput({ ...base, matches: true, error: 'boom' }).map((l) => l.text)).toEqual(['URL matches pattern', 'Error: boom']);
    expect(errorOutput('Unexpected token')).toEqual([{ tone: 'error', text: 'Error: Unexpected token' }]);
  });
});
