import { MOCK_MESSAGES, type Device, type MockedRoute } from '@spyglass/protocol';
import { ArrowDownWideNarrow, ArrowLeft, ArrowUpNarrowWide, Info, Plus, Route, Search } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { Button, IconButton } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { ResizeHandle } from '../../../ui/resize-handle';
import { Spinner } from '../../../ui/spinner';
import { useInnerWidth } from '../../../ui/use-inner-width';
import { MockingHelp } from '../mocking-help';
import { useMockedRoutes, useRouteConsoleSync } from '../mocks.api';
import { newRoute } from './route-draft';
import { RouteEditor } from './route-editor';
import { RouteList } from './route-list';
import { DEFAULT_ROUTE_SORT, filterRoutes, ROUTE_SORTS, sortRoutes, type ListedRoute, type RouteSort, type RouteSortId } from './route-list-order';
import '../mocks.css';

/** Spec 002 §9: the divider between list and editor, in percent of the view. */
export const SPLIT = { min: 20, max: 70, initial: 40 } as const;

/**
 * Under this width the two panes do not fit side by side (at 390 px the list's 40 % left the
 * search box 20 px and cut every URL after 'http://1'): the list takes the whole width, and an
 * opened route's editor replaces it, with a way back. 640 keeps a desktop window with both
 * sidebars open (740 px at 1280) on the two panes.
 */
export const SINGLE_PANE_UNDER = 640;

/**
 * /devices/{deviceId}/mock-apis (spec 002 'Mock routes view'): the device's mocked routes,
 * searchable and sortable on the left, the selected one's editor on the right; one pane at a time
 * where the view is narrower than SINGLE_PANE_UNDER (a phone).
 */
export function MockRoutesView({ device }: { device: Device }) {
  const routes = useMockedRoutes(device.id);
  useRouteConsoleSync(device.id);
  const [unsaved, setUnsaved] = useState<ListedRoute[]>([]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<RouteSort>(DEFAULT_ROUTE_SORT);
  const [split, setSplit] = useState<number>(SPLIT.initial);
  // On one pane, whether the selected route's editor is the pane shown; going back to the list keeps the selection marked.
  const [editorOpen, setEditorOpen] = useState(false);
  const layout = useRef<HTMLDivElement>(null);
  // Measured before the first paint: a phone never shows the two panes for a frame.
  const layoutWidth = useInnerWidth(layout);
  const measured = Number.isFinite(layoutWidth);
  const singlePane = measured && layoutWidth < SINGLE_PANE_UNDER;
  const nextLocalId = useRef(1);

  const all = useMemo<ListedRoute[]>(() => [...unsaved, ...(routes.data ?? [])], [unsaved, routes.data]);
  const shown = useMemo(() => sortRoutes(filterRoutes(all, query), sort), [all, query, sort]);
  const selected = all.find((route) => route.id === selectedId) ?? null;

  function add() {
    const route = newRoute(device.id, `unsaved-${nextLocalId.current++}`);
    setUnsaved((current) => [route, ...current]);
    open(route.id);
  }

  function open(id: string) {
    setSelectedId(id);
    setEditorOpen(true);
  }

  function created(localId: string, route: MockedRoute) {
    setUnsaved((current) => current.filter((r) => r.id !== localId));
    setSelectedId(route.id);
  }

  function deleted(id: string) {
    setUnsaved((current) => current.filter((r) => r.id !== id));
    setSelectedId((current) => (current === id ? null : current));
  }

  const px = (percent: number) => Math.round((percent / 100) * layoutWidth);
  const toPercent = (width: number) => (measured && layoutWidth > 0 ? (width / layoutWidth) * 100 : SPLIT.initial);
  const showEditor = !singlePane || (editorOpen && selected !== null);

  return (
    <div className={`mock-routes${singlePane ? ' is-single-pane' : ''}`} ref={layout}>
      <aside className="mock-routes-list" style={singlePane ? undefined : { width: `${split}%` }} hidden={singlePane && showEditor}>
        <div className="mock-routes-head">
          <h1 className="mock-routes-title">Mocked routes{routes.data ? <span className="mock-routes-count">{routes.data.length}</span> : null}</h1>
          <MockingHelp />
          <Button size="sm" variant="primary" icon={<Plus size={14} aria-hidden="true" />} onClick={add}>Add</Button>
        </div>
        <div className={`mock-note${device.online ? '' : ' is-offline'}`} role="note">
          <Info size={14} aria-hidden="true" />
          <span>{MOCK_MESSAGES.onlyConnectedDevices}{device.online ? '' : ' This device is offline: it receives the enabled routes when it connects.'}</span>
        </div>
        <div className="mock-routes-tools">
          <label className="mock-search">
            <Search size={14} aria-hidden="true" />
            <input className="mock-search-input" type="search" placeholder="Search routes" aria-label="Search mocked routes" value={query} onChange={(event) => setQuery(event.target.value)} />
          </label>
          <select className="input input-sm" aria-label="Sort by" value={sort.by}
            onChange={(event) => setSort({ by: event.target.value as RouteSortId, descending: event.target.value === 'createdAt' })}>
            {ROUTE_SORTS.map((option) => <option key={option.id} value={option.id}>{option.label}</option>)}
          </select>
          <IconButton label={sort.descending ? 'Descending' : 'Ascending'} onClick={() => setSort({ ...sort, descending: !sort.descending })}>
            {sort.descending ? <ArrowDownWideNarrow size={15} aria-hidden="true" /> : <ArrowUpNarrowWide size={15} aria-hidden="true" />}
          </IconButton>
        </div>
        <div className="mock-routes-scroll">
          {routes.isPending && unsaved.length === 0 ? (
            <div className="mock-routes-state"><Spinner size={16} /> Loading...</div>
          ) : routes.isError && !routes.data ? (
            <div className="mock-routes-state">
              <span>{routes.error.message}</span>
              <Button size="sm" onClick={() => void routes.refetch()}>Try again</Button>
            </div>
          ) : all.length === 0 ? (
            <div className="mock-routes-state">No mocked routes</div>
          ) : shown.length === 0 ? (
            <div className="mock-routes-state">
              <span>No routes match the search</span>
              <Button size="sm" onClick={() => setQuery('')}>Clear Search</Button>
            </div>
          ) : (
            <RouteList routes={shown} selectedId={selectedId} onSelect={open} />
          )}
        </div>
        {measured && layoutWidth > 0 && !singlePane && (
          <ResizeHandle edge="right" label="Resize the list" size={px(split)} min={px(SPLIT.min)} max={px(SPLIT.max)}
            onResize={(width) => setSplit(toPercent(width))} onCommit={(width) => setSplit(toPercent(width))} />
        )}
      </aside>
      {showEditor && <section className="mock-routes-editor" aria-label="Mocked route">
        {singlePane && (
          <div className="mock-routes-back">
            <Button size="sm" variant="ghost" icon={<ArrowLeft size={15} aria-hidden="true" />} aria-label="Back to mocked routes" onClick={() => setEditorOpen(false)}>
              Mocked routes
            </Button>
          </div>
        )}
        {selected ? (
          <RouteEditor key={selected.id} route={selected} onCreated={created} onDeleted={deleted} />
        ) : (
          <EmptyState icon={<Route size={22} />} title="Select or add a mocked route" />
        )}
      </section>}
    </div>
  );
}
