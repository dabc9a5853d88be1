import { formatDuration, type NetworkDetails } from '@spyglass/protocol';
import { timingBarStyle, timingPhases } from './timing';

/** Spec 001 'Details panel': timing bars, 2 px per ms from where each phase began, never wider than the track. */
export function TimingBars({ details, duration }: { details: Pick<NetworkDetails, 'timings' | 'request'>; duration: number | null }) {
  const phases = timingPhases(details, duration);
  if (phases.length === 0) return null;
  return (
    <section className="timing" aria-label="Timing">
      <h4 className="details-section-title">Timing</h4>
      <ul className="timing-list">
        {phases.map((phase) => (
          <li key={phase.key} className="timing-row" data-phase={phase.key}>
            <span className="timing-label">{phase.label}</span>
            <span className="timing-track"><span className="timing-bar" style={timingBarStyle(phase)} /></span>
            <span className="timing-value">{formatDuration(phase.ms)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
