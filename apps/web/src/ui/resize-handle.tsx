import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { clampWidth } from './clamp-width';

export interface ResizeHandleProps {
  /** Which edge of the panel the handle sits on: a left sidebar grows to the right, a right one to the left. */
  edge: 'right' | 'left';
  width: number;
  min: number;
  max: number;
  label: string;
  /** Every move while dragging (or each arrow key press). */
  onResize(width: number): void;
  /** The final width, once the pointer is released: the moment to save it. */
  onCommit(width: number): void;
}

const KEY_STEP = 10;

/** A draggable panel edge (a vertical separator): pointer drag, arrow keys, and Home/End for the limits. */
export function ResizeHandle({ edge, width, min, max, label, onResize, onCommit }: ResizeHandleProps) {
  const drag = useRef<{ startX: number; startWidth: number; last: number } | null>(null);
  const direction = edge === 'right' ? 1 : -1;

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX, startWidth: width, last: width };
    document.body.classList.add('is-resizing');
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const state = drag.current;
    if (!state) return;
    const next = clampWidth(state.startWidth + (event.clientX - state.startX) * direction, min, max);
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
    document.body.classList.remove('is-resizing');
    if (state.last !== state.startWidth) onCommit(state.last);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const grow = edge === 'right' ? 'ArrowRight' : 'ArrowLeft';
    const shrink = edge === 'right' ? 'ArrowLeft' : 'ArrowRight';
    let next: number | null = null;
    if (event.key === grow) next = width + KEY_STEP;
    else if (event.key === shrink) next = width - KEY_STEP;
    else if (event.key === 'Home') next = min;
    else if (event.key === 'End' && Number.isFinite(max)) next = max;
    if (next === null) return;
    event.preventDefault();
    next = clampWidth(next, min, max);
    if (next === width) return;
    onResize(next);
    onCommit(next);
  }

  return (
    <div
      className={`resize-handle resize-handle-${edge}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={Number.isFinite(max) ? max : undefined}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}
