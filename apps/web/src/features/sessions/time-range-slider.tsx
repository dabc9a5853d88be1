import * as Slider from '@radix-ui/react-slider';
import { formatTimestamp } from '@spyglass/protocol';
import { useEffect, useRef, useState } from 'react';
import { rangeStep, type TimeRange } from './time-range';

/**
 * The session's time-range slider over the request times (spec 001 'Sessions'). Dragging shows
 * the range at once; the list follows when a thumb is released (`onCommit`).
 */
export function TimeRangeSlider({ bounds, value, onCommit }: { bounds: TimeRange; value: TimeRange; onCommit(range: TimeRange): void }) {
  const [draft, setDraft] = useState<TimeRange>(value);
  // The bounds grow while a session streams in: a thumb being dragged is not pulled back meanwhile.
  const dragging = useRef(false);
  useEffect(() => {
    if (!dragging.current) setDraft(value);
  }, [value]);
  const showDate = new Date(bounds[0]).toDateString() !== new Date(bounds[1]).toDateString();
  const label = (ms: number) => formatTimestamp(ms, { withDate: showDate });
  return (
    <div className="time-range">
      <span className="time-range-label" aria-hidden="true">{label(draft[0])}</span>
      <Slider.Root
        className="time-range-slider"
        min={bounds[0]}
        max={bounds[1]}
        step={rangeStep(bounds)}
        minStepsBetweenThumbs={0}
        value={[draft[0], draft[1]]}
        onValueChange={([from, to]) => {
          dragging.current = true;
          setDraft([from!, to!]);
        }}
        onValueCommit={([from, to]) => {
          dragging.current = false;
          onCommit([from!, to!]);
        }}
      >
        <Slider.Track className="time-range-track">
          <Slider.Range className="time-range-range" />
        </Slider.Track>
        <Slider.Thumb className="time-range-thumb" aria-label="Start of the time range" aria-valuetext={label(draft[0])} />
        <Slider.Thumb className="time-range-thumb" aria-label="End of the time range" aria-valuetext={label(draft[1])} />
      </Slider.Root>
      <span className="time-range-label" aria-hidden="true">{label(draft[1])}</span>
    </div>
  );
}
