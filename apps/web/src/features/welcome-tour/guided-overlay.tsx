import { X } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button, IconButton } from '../../ui/button';
import { canGoBack, cardPlacement, highlightBox, isLastStep, type Rect } from './overlay-machine';
import { findTarget, OVERLAY_STEPS, performAction } from './overlay-steps';
import { moveGuidedTour, useGuidedTour } from './overlay-store';
import './welcome-tour.css';

/** Room left around the highlighted target. */
const HIGHLIGHT_PADDING = 6;
/**
 * The highlight keeps this far inside the window, so that its 2 px ring (drawn outside its box)
 * shows whole. Not more: the sidebar's buttons sit 8 px from the window's left edge, where the
 * padding and the ring just fit.
 */
const HIGHLIGHT_VIEWPORT_MARGIN = 2;

/**
 * The guided overlay (spec 000 §3, 001 'Welcome tour'): highlights the step's target, shows its
 * instruction beside it (default below), 'Step X of Y', Previous above step 1, Next or Finish,
 * and close. Moving on performs the step's action on the target (click, focus or scroll). The
 * page stays usable underneath: the overlay only dims it.
 */
export function GuidedOverlay() {
  const tour = useGuidedTour();
  const card = useRef<HTMLDivElement>(null);
  const [rect, setRect] = useState<Rect | null>(null);
  const [cardSize, setCardSize] = useState({ width: 320, height: 140 });
  const step = tour ? OVERLAY_STEPS[tour.tourId][tour.step - 1] : undefined;

  // The target may appear later (a row arriving, the details opening) and moves with scrolling
  // and resizing: it is looked up on every frame while the overlay is open.
  useEffect(() => {
    if (!step) return;
    let frame = 0;
    let scrolled: HTMLElement | null = null;
    const track = () => {
      const element = findTarget(step.target);
      if (element && element !== scrolled) {
        element.scrollIntoView({ block: 'nearest' });
        scrolled = element;
      }
      const box = element?.getBoundingClientRect();
      // A target in a closed part of the page (display: none) has an empty box at the corner.
      const shown = box && (box.width > 0 || box.height > 0) ? box : undefined;
      setRect((previous) => {
        if (!shown) return previous === null ? previous : null;
        const next = { top: shown.top, left: shown.left, width: shown.width, height: shown.height };
        return previous && previous.top === next.top && previous.left === next.left && previous.width === next.width && previous.height === next.height ? previous : next;
      });
      frame = requestAnimationFrame(track);
    };
    track();
    return () => cancelAnimationFrame(frame);
  }, [step]);

  useLayoutEffect(() => {
    const box = card.current?.getBoundingClientRect();
    if (box && (box.width !== cardSize.width || box.height !== cardSize.height)) setCardSize({ width: box.width, height: box.height });
  });

  useEffect(() => {
    if (!tour) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') moveGuidedTour('exit');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [tour]);

  if (!tour || !step) return null;
  const last = isLastStep(tour);
  const advance = () => {
    const element = findTarget(step.target);
    if (element) performAction(element, step.action);
    moveGuidedTour(last ? 'finish' : 'next');
  };
  const viewport = { width: window.innerWidth, height: window.innerHeight };
  const placement = cardPlacement(rect, cardSize, viewport, step.position ?? 'bottom');
  const highlight = rect && highlightBox(rect, viewport, HIGHLIGHT_PADDING, HIGHLIGHT_VIEWPORT_MARGIN);

  return (
    <div className="guided-overlay">
      {highlight
        ? <div className="guided-highlight" aria-hidden="true" style={highlight} />
        : <div className="guided-dim" aria-hidden="true" />}
      <div ref={card} className="guided-card" role="dialog" aria-label="Guided tour" aria-describedby="guided-instruction" style={placement}>
        <div className="guided-card-head">
          <span className="guided-step">Step {tour.step} of {tour.total}</span>
          <IconButton label="Close" onClick={() => moveGuidedTour('exit')}><X size={14} aria-hidden="true" /></IconButton>
        </div>
        <p id="guided-instruction" className="guided-instruction">{step.instruction}</p>
        <div className="guided-actions">
          {canGoBack(tour) && <Button size="sm" onClick={() => moveGuidedTour('previous')}>Previous</Button>}
          <span className="spacer" />
          <Button size="sm" variant="primary" onClick={advance}>{last ? 'Finish' : 'Next'}</Button>
        </div>
      </div>
    </div>
  );
}
