import { formatTimestamp } from '@spyglass/protocol';
import type { ListedRoute } from './route-list-order';

/** The routes of the list: enabled dot, method, URL, status, tags and when it was created. */
export function RouteList({ routes, selectedId, onSelect }: { routes: readonly ListedRoute[]; selectedId: string | null; onSelect(id: string): void }) {
  return (
    <ul className="route-list" role="listbox" aria-label="Mocked routes">
      {routes.map((route, index) => {
        const { mockData } = route;
        const selected = route.id === selectedId;
        return (
          <li key={route.id} role="option" aria-selected={selected} className={`route-row${selected ? ' is-selected' : ''}`}
            // One row is in the tab order: the selected one, else the first.
            tabIndex={selected || (selectedId === null && index === 0) ? 0 : -1} onClick={() => onSelect(route.id)}
            onKeyDown={(event) => { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); onSelect(route.id); } }}>
            <span className={`route-dot${route.isEnabled ? ' is-on' : ''}`} role="img" aria-label={route.isEnabled ? 'Enabled' : 'Disabled'} />
            <span className="route-row-main">
              <span className="route-row-line">
                <span className={`method-badge method-${mockData.method.toLowerCase()}`}>{mockData.method}</span>
                <span className="route-row-url" title={mockData.mockedUrl}>{mockData.mockedUrl || 'New mocked route'}</span>
              </span>
              <span className="route-row-meta">
                {mockData.mode === 'mapRemote'
                  ? <span className="route-row-kind">Map Remote</span>
                  : <span className="route-row-kind">{mockData.responseMode === 'dynamic' ? 'Dynamic' : `${mockData.statusCode} · Static`}</span>}
                {route.isUnsaved ? <span className="route-row-unsaved">Unsaved</span> : <span>{formatTimestamp(route.createdAt)}</span>}
                {route.tags.slice(0, 3).map((tag) => <span key={tag} className="tag-chip tag-chip-sm">{tag}</span>)}
                {route.tags.length > 3 && <span>+{route.tags.length - 3}</span>}
              </span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
