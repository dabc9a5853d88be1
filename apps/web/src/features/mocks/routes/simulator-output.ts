import { MOCK_MESSAGES, type SimulateMockedRouteResponse } from '@spyglass/protocol';

/** One line of the simulator's console output. */
export interface OutputLine { tone: 'ok' | 'error' | 'plain' | 'log'; text: string }

/**
 * What the simulator prints for an answer (spec 002 §2): 'URL matches pattern', or 'Request URL
 * does not match pattern' with both shown; then the handler's result and logs, or 'Error: {message}'.
 */
export function simulatorOutput(result: SimulateMockedRouteResponse): OutputLine[] {
  const lines: OutputLine[] = [];
  if (result.matches) lines.push({ tone: 'ok', text: MOCK_MESSAGES.urlMatches });
  else {
    lines.push({ tone: 'error', text: MOCK_MESSAGES.urlDoesNotMatch });
    lines.push({ tone: 'plain', text: `Request URL: ${result.url}` });
    lines.push({ tone: 'plain', text: `Pattern: ${result.pattern}` });
  }
  for (const entry of result.logs) lines.push({ tone: 'log', text: `> ${entry.message}` });
  if (result.error) lines.push({ tone: 'error', text: `Error: ${result.error}` });
  if (result.mappedUrl) lines.push({ tone: 'plain', text: `Sent to ${result.mappedUrl}` });
  if (result.response) {
    const { status, headers, body } = result.response;
    lines.push({ tone: 'plain', text: `Status: ${status}` });
    const headerLines = Object.entries(headers).map(([key, value]) => `  ${key}: ${value}`);
    if (headerLines.length) lines.push({ tone: 'plain', text: `Headers:\n${headerLines.join('\n')}` });
    lines.push({ tone: 'plain', text: `Body:\n${prettyBody(body)}` });
  }
  return lines;
}

export const errorOutput = (message: string): OutputLine[] => [{ tone: 'error', text: `Error: ${message}` }];

function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
