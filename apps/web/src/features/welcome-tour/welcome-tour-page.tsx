import { TOUR_MESSAGES, WELCOME_TOURS, type WelcomeTour } from '@spyglass/protocol';
import { Check, Compass, RotateCcw } from 'lucide-react';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../lib/document-title';
import { Button } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import { Spinner } from '../../ui/spinner';
import { useDevices } from '../devices/devices.api';
import { startGuidedTour } from './overlay-store';
import { useResetTour, useToggleTourStep, useWelcomeTours, type TourId } from './welcome-tour.api';
import './welcome-tour.css';

const TOUR_TITLES: Record<TourId, string> = { BASIC_TUTORIAL: 'Basic Tutorial', MOCKING_TUTORIAL: 'Mocking Tutorial' };

/** /welcome-tour: the tours' checklists with their progress (spec 000 §3, 001 'Welcome tour'). */
export function WelcomeTourPage() {
  useDocumentTitle('Welcome Tour');
  const tours = useWelcomeTours();
  const devices = useDevices();
  const navigate = useNavigate();
  const device = devices.data?.find((d) => d.online) ?? devices.data?.[0];

  const startGuide = (tourId: TourId) => {
    if (!device) return;
    void navigate(`/devices/${encodeURIComponent(device.id)}`);
    startGuidedTour(tourId);
  };

  let body;
  if (tours.isPending) {
    body = <div className="page-body page-body-center" role="status"><Spinner size={16} /> Loading...</div>;
  } else if (tours.isError) {
    body = (
      <div className="page-body page-body-center tour-message is-error" role="alert">
        <span>{TOUR_MESSAGES.loadProgressFailed}</span>
        <Button size="sm" onClick={() => void tours.refetch()}>Retry</Button>
      </div>
    );
  } else {
    body = (
      <div className="page-body tour-lists">
        {(Object.keys(WELCOME_TOURS) as TourId[]).map((id) => {
          const tour = tours.data.find((t) => t.id === id);
          return tour && <TourChecklist key={id} tour={tour} canGuide={device !== undefined} onGuide={() => startGuide(id)} />;
        })}
      </div>
    );
  }
  return (
    <div className="page welcome-tour-page">
      <PageHeader title="Welcome Tour" />
      {body}
    </div>
  );
}

function TourChecklist({ tour, canGuide, onGuide }: { tour: WelcomeTour; canGuide: boolean; onGuide(): void }) {
  const toggle = useToggleTourStep();
  const reset = useResetTour();
  const done = tour.steps.filter((s) => s.status === 'completed').length;
  const percent = tour.steps.length === 0 ? 0 : Math.round((done / tour.steps.length) * 100);
  const title = TOUR_TITLES[tour.id];
  return (
    <section className="tour-card" aria-label={title}>
      <header className="tour-card-head">
        <h2 className="tour-title">{title}</h2>
        <span className="tour-count">{done} / {tour.steps.length}</span>
      </header>
      <div className="tour-progress" role="progressbar" aria-label={`${title} progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <div className="tour-progress-bar" style={{ width: `${percent}%` }} />
      </div>
      <ol className="tour-steps">
        {tour.steps.map((step) => {
          const completed = step.status === 'completed';
          return (
            <li key={step.id} className={completed ? 'tour-step is-done' : 'tour-step'}>
              <label className="tour-step-label">
                <input type="checkbox" className="tour-step-check" checked={completed}
                  onChange={(event) => toggle.mutate({ tourId: tour.id, stepId: step.id, completed: event.target.checked })} />
                <span className="tour-step-box" aria-hidden="true">{completed && <Check size={12} />}</span>
                <span className="tour-step-name">{step.id}</span>
              </label>
            </li>
          );
        })}
      </ol>
      <footer className="tour-card-foot">
        <Button size="sm" variant="ghost" icon={<RotateCcw size={14} aria-hidden="true" />} disabled={done === 0} loading={reset.isPending}
          onClick={() => reset.mutate(tour)}>
          Start over
        </Button>
        <Button size="sm" icon={<Compass size={14} aria-hidden="true" />} disabled={!canGuide} onClick={onGuide}
          title={canGuide ? undefined : 'Connect a device first'}>
          Start guided tour
        </Button>
      </footer>
    </section>
  );
}
