import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

const KEY_STEP = 20;

/**
 * The top edge of the details panel: dragging it up makes the panel taller. Pointer and keyboard
 * (arrows, Home/End for the limits), like the sidebars' ResizeHandle but for a height.
 */
export function HeightHandle({ height, min, max, onResize, onCommit }: {
  height: number;
  min: number;
  max: number;
  onResize(height: number): void;
  /** The final height once the pointer is released (the moment to remember it). */
  onCommit(height: number): void;
}) {
  const drag = useRef<{ startY: number; startHeight: number; last: number } | null>(null);
  const clamp = (value: number) => Math.round(Math.min(max, Math.max(min, value)));

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startY: event.clientY, startHeight: height, last: height };
    document.body.classList.add('is-resizing-rows');
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const state = drag.current;
    if (!state) return;
    const next = clamp(state.startHeight - (event.clientY - state.startY));
    if (next !== state.last) {
      state.last = next;
      onResize(next);
    }
  }

  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    const state = drag.current;
    if (!state) return;
    drag.current = null;
    event.currentTarget.releasePointerCapture(event.pointerId);
    document.body.classList.remove('is-resizing-rows');
    if (state.last !== state.startHeight) onCommit(state.last);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const next = event.key === 'ArrowUp' ? height + KEY_STEP
      : event.key === 'ArrowDown' ? height - KEY_STEP
        : event.key === 'Home' ? min
          : event.key === 'End' ? max
            : null;
    if (next === null) return;
    event.preventDefault();
    const clamped = clamp(next);
    if (clamped === height) return;
    onResize(clamped);
    onCommit(clamped);
  }

  return (
    <div
      className="details-resize"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize details panel"
      aria-valuenow={height}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}
