import { formatTimestamp } from '@spyglass/protocol';
import { useEffect, useRef } from 'react';
import { ResizeHandle } from '../../ui/resize-handle';

export interface ConsoleLine {
  time: string;
  message: string;
  isError?: boolean;
}

/** Spec 002 §9: the console is 100 to 400 px high, 150 by default. */
export const CONSOLE_HEIGHT = { min: 100, max: 400, initial: 150 } as const;

/** The console below the table: each operation with its time, newest at the bottom, resizable by its top edge. */
export function ConsolePanel({ lines, height, onResize }: { lines: readonly ConsoleLine[]; height: number; onResize(height: number): void }) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [lines.length]);
  return (
    <section className="ud-console" style={{ height }} aria-label="Console">
      <ResizeHandle edge="top" className="ud-console-resize" label="Resize console" step={20} size={height}
        min={CONSOLE_HEIGHT.min} max={CONSOLE_HEIGHT.max} onResize={onResize} />
      <div className="ud-console-title">Console</div>
      {lines.length === 0 ? (
        <div className="ud-console-empty">No logs yet</div>
      ) : (
        <ol className="ud-console-lines" ref={list}>
          {lines.map((line, index) => (
            <li key={index} className={`ud-console-line${line.isError ? ' is-error' : ''}`}>
              <time dateTime={line.time}>{formatTimestamp(line.time)}</time>
              <span>{line.message}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
