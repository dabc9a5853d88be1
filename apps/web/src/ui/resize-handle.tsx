import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { clampWidth } from './clamp-width';

export interface ResizeHandleProps {
  /**
   * Which edge of the panel the handle sits on: a left sidebar grows to the right, a right one to
   * the left, a bottom panel (details, console) upwards.
   */
  edge: 'right' | 'left' | 'top';
  /** The panel's width (its height on the top edge), in whole pixels. */
  size: number;
  min: number;
  /** Infinity: no upper limit (End does nothing). */
  max: number;
  label: string;
  /** Pixels per arrow key press. */
  step?: number;
  /** The handle's own look, where it is not a sidebar's or column's edge (`resize-handle`). */
  className?: string;
  /** Every move while dragging (or each arrow key press). */
  onResize(size: number): void;
  /** The final size, once the pointer is released: the moment to save it. */
  onCommit?(size: number): void;
}

/**
 * A draggable panel edge (a separator): pointer drag, arrow keys, and Home/End for the limits.
 * While it is dragged the body carries `is-resizing` (`is-resizing-rows` on a top edge), so the
 * cursor keeps its shape and no text is selected wherever the pointer goes.
 */
export function ResizeHandle({ edge, size, min, max, label, step = 10, className, onResize, onCommit }: ResizeHandleProps) {
  const drag = useRef<{ start: number; startSize: number; last: number } | null>(null);
  const vertical = edge === 'top';
  // How a pointer move along the handle's axis changes the size.
  const direction = edge === 'right' ? 1 : -1;
  const bodyClass = vertical ? 'is-resizing-rows' : 'is-resizing';
  const along = (event: PointerEvent) => (vertical ? event.clientY : event.clientX);

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { start: along(event), startSize: size, last: size };
    document.body.classList.add(bodyClass);
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const state = drag.current;
    if (!state) return;
    const next = clampWidth(state.startSize + (along(event) - state.start) * direction, min, max);
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
    document.body.classList.remove(bodyClass);
    if (state.last !== state.startSize) onCommit?.(state.last);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const grow = { right: 'ArrowRight', left: 'ArrowLeft', top: 'ArrowUp' }[edge];
    const shrink = { right: 'ArrowLeft', left: 'ArrowRight', top: 'ArrowDown' }[edge];
    let next: number | null = null;
    if (event.key === grow) next = size + step;
    else if (event.key === shrink) next = size - step;
    else if (event.key === 'Home') next = min;
    else if (event.key === 'End' && Number.isFinite(max)) next = max;
    if (next === null) return;
    event.preventDefault();
    next = clampWidth(next, min, max);
    if (next === size) return;
    onResize(next);
    onCommit?.(next);
  }

  return (
    <div
      className={className ?? `resize-handle resize-handle-${edge}`}
      role="separator"
      aria-orientation={vertical ? 'horizontal' : 'vertical'}
      aria-label={label}
      aria-valuenow={size}
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
