import { formatTimestamp, type ConsoleEntry } from '@spyglass/protocol';

/** The console of a route (spec 002 §2): log entries of its dynamic handler, time and message. */
export function RouteConsole({ entries, label = 'Console' }: { entries: readonly ConsoleEntry[]; label?: string }) {
  return (
    <section className="mock-console" aria-label={label}>
      <div className="mock-section-title">{label}</div>
      {entries.length === 0 ? (
        <div className="mock-console-empty">No logs yet</div>
      ) : (
        <ol className="mock-console-lines">
          {entries.map((entry, index) => (
            <li key={`${entry.time}-${index}`} className={`mock-console-line${entry.level === 'error' ? ' is-error' : entry.level === 'warn' ? ' is-warn' : ''}`}>
              <time dateTime={entry.time}>{formatTimestamp(entry.time)}</time>
              <span className="mock-console-message">{entry.message}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
