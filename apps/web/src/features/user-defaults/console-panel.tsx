import { formatTimestamp } from '@spyglass/protocol';
import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';

export interface ConsoleLine {
  time: string;
  message: string;
  isError?: boolean;
}

/** Spec 002 §9: the console is 100 to 400 px high, 150 by default. */
export const CONSOLE_HEIGHT = { min: 100, max: 400, initial: 150 } as const;
const KEY_STEP = 20;

/** The console below the table: each operation with its time, newest at the bottom, resizable by its top edge. */
export function ConsolePanel({ lines, height, onResize }: { lines: readonly ConsoleLine[]; height: number; onResize(height: number): void }) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [lines.length]);
  return (
    <section className="ud-console" style={{ height }} aria-label="Console">
      <ConsoleHeightHandle height={height} onResize={onResize} />
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

const clamp = (value: number) => Math.round(Math.min(CONSOLE_HEIGHT.max, Math.max(CONSOLE_HEIGHT.min, value)));

/** The console's top edge: dragging it up makes the console taller (pointer, arrows, Home/End). */
function ConsoleHeightHandle({ height, onResize }: { height: number; onResize(height: number): void }) {
  const drag = useRef<{ startY: number; startHeight: number } | null>(null);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startY: event.clientY, startHeight: height };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) onResize(clamp(drag.current.startHeight - (event.clientY - drag.current.startY)));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    drag.current = null;
    event.currentTarget.releasePointerCapture(event.pointerId);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = { ArrowUp: height + KEY_STEP, ArrowDown: height - KEY_STEP, Home: CONSOLE_HEIGHT.min, End: CONSOLE_HEIGHT.max }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onResize(clamp(next));
  };
  return (
    <div
      className="ud-console-resize"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize console"
      aria-valuenow={height}
      aria-valuemin={CONSOLE_HEIGHT.min}
      aria-valuemax={CONSOLE_HEIGHT.max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}
