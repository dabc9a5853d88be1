import type { CapturedItem } from '@spyglass/protocol';
import { useState } from 'react';
import { KeyValueTable, valueText, type KeyValueRow } from './key-value-table';
import { stackTraceRows, stackTraceText } from './stack-trace';
import { TextBlock } from './text-block';

type LogItem = Extract<CapturedItem, { type: 'log' }>;

/** Spec 001 'Details panel': message, metadata table (file, line, level) and the stack trace as Raw or Table. */
export function LogDetails({ item }: { item: LogItem }) {
  const { details } = item;
  const metadata: KeyValueRow[] = [
    ['File', details.file],
    ['Line', details.line === undefined ? undefined : String(details.line)],
    ['Level', details.level ?? item.level ?? undefined],
    ['Category', details.category],
    ['Subsystem', details.subsystem],
    ['Name', details.name],
  ].filter((row): row is [string, string] => typeof row[1] === 'string' && row[1] !== '')
    .map(([key, value]) => ({ key, value }));
  for (const [key, value] of Object.entries(details.metadata ?? {})) metadata.push({ key, value: valueText(value) });

  return (
    <div className="details-stack">
      <section aria-label="Message">
        <h4 className="details-section-title">Message</h4>
        <TextBlock text={details.message} className="log-message" />
      </section>
      <section aria-label="Metadata">
        <h4 className="details-section-title">Metadata</h4>
        <KeyValueTable rows={metadata} label="Log metadata" />
      </section>
      {details.stackTrace && details.stackTrace.length > 0 && <StackTrace frames={details.stackTrace} />}
    </div>
  );
}

function StackTrace({ frames }: { frames: NonNullable<LogItem['details']['stackTrace']> }) {
  const [view, setView] = useState<'Raw' | 'Table'>('Table');
  return (
    <section aria-label="Stack trace">
      <div className="details-section-head">
        <h4 className="details-section-title">Stack trace</h4>
        <div className="details-segmented" role="group" aria-label="Stack trace view">
          {(['Raw', 'Table'] as const).map((v) => (
            <button key={v} type="button" className="details-segmented-item" aria-pressed={v === view} onClick={() => setView(v)}>{v}</button>
          ))}
        </div>
      </div>
      {view === 'Raw' ? <TextBlock text={stackTraceText(frames)} /> : (
        <table className="data-table stack-table" aria-label="Stack trace">
          <thead>
            <tr><th scope="col">Class</th><th scope="col">Method</th><th scope="col">File</th><th scope="col">Line</th><th scope="col">Native</th></tr>
          </thead>
          <tbody>
            {stackTraceRows(frames).map((row, index) => (
              <tr key={index}>
                <td>{row.className}</td><td>{row.methodName}</td><td>{row.fileName}</td><td className="num">{row.line}</td><td>{row.native}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
