import { MOCK_MESSAGES, type Device, type MockedRoute } from '@spyglass/protocol';
import { ArrowDownWideNarrow, ArrowUpNarrowWide, Info, Plus, Route, Search } from 'lucide-react';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Button, IconButton } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { ResizeHandle } from '../../../ui/resize-handle';
import { Spinner } from '../../../ui/spinner';
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
 * /devices/{deviceId}/mock-apis (spec 002 'Mock routes view'): the device's mocked routes,
 * searchable and sortable on the left, the selected one's editor on the right.
 */
export function MockRoutesView({ device }: { device: Device }) {
  const routes = useMockedRoutes(device.id);
  useRouteConsoleSync(device.id);
  const [unsaved, setUnsaved] = useState<ListedRoute[]>([]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<RouteSort>(DEFAULT_ROUTE_SORT);
  const [split, setSplit] = useState<number>(SPLIT.initial);
  const layout = useRef<HTMLDivElement>(null);
  const [layoutWidth, setLayoutWidth] = useState(0);
  const nextLocalId = useRef(1);

  useLayoutEffect(() => {
    const element = layout.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setLayoutWidth(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const all = useMemo<ListedRoute[]>(() => [...unsaved, ...(routes.data ?? [])], [unsaved, routes.data]);
  const shown = useMemo(() => sortRoutes(filterRoutes(all, query), sort), [all, query, sort]);
  const selected = all.find((route) => route.id === selectedId) ?? null;

  function add() {
    const route = newRoute(device.id, `unsaved-${nextLocalId.current++}`);
    setUnsaved((current) => [route, ...current]);
    setSelectedId(route.id);
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
  const toPercent = (width: number) => (layoutWidth > 0 ? (width / layoutWidth) * 100 : SPLIT.initial);

  return (
    <div className="mock-routes" ref={layout}>
      <aside className="mock-routes-list" style={{ width: `${split}%` }}>
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
            <RouteList routes={shown} selectedId={selectedId} onSelect={setSelectedId} />
          )}
        </div>
        {layoutWidth > 0 && (
          <ResizeHandle edge="right" label="Resize the list" size={px(split)} min={px(SPLIT.min)} max={px(SPLIT.max)}
            onResize={(width) => setSplit(toPercent(width))} onCommit={(width) => setSplit(toPercent(width))} />
        )}
      </aside>
      <section className="mock-routes-editor" aria-label="Mocked route">
        {selected ? (
          <RouteEditor key={selected.id} route={selected} onCreated={created} onDeleted={deleted} />
        ) : (
          <EmptyState icon={<Route size={22} />} title="Select or add a mocked route" />
        )}
      </section>
    </div>
  );
}
