import { CircleHelp, KeyRound, Plus, RefreshCw, Search, SearchX, Smartphone, X } from 'lucide-react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { track } from '../../lib/analytics';
import { useDocumentTitle } from '../../lib/document-title';
import { Button, IconButton } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { PageHeader } from '../../ui/page-header';
import { Spinner } from '../../ui/spinner';
import { DEFAULT_DEVICE_SORT, matchesDeviceSearch, sortDevices, toggleDeviceSort } from './device-list';
import { EMPTY_SELECTION, keepShown } from './device-selection';
import { DeviceTable } from './device-table';
import { useDevices } from './devices.api';
import { DevicesHelp } from './devices-help';
import { MobileInfoBox } from './mobile-info-box';
import { useDeviceColumns } from './use-device-columns';
import './devices.css';

/** /devices: the account's devices, live (spec 001 'Device list'). */
export function DevicesPage() {
  useDocumentTitle('Devices');
  const navigate = useNavigate();
  const devices = useDevices();
  const { columns, preview, save } = useDeviceColumns();
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState(DEFAULT_DEVICE_SORT);
  const [selection, setSelection] = useState(EMPTY_SELECTION);
  const [helpOpen, setHelpOpen] = useState(false);
  const [dismissedError, setDismissedError] = useState(0);

  const shown = useMemo(
    () => sortDevices((devices.data ?? []).filter((d) => matchesDeviceSearch(d, search)), sort),
    [devices.data, search, sort],
  );
  useEffect(() => setSelection((current) => keepShown(current, shown.map((d) => d.id))), [shown]);

  const toggleHelp = () => {
    if (!helpOpen) track('need_help');
    setHelpOpen(!helpOpen);
  };

  const refreshing = devices.isFetching && !devices.isPending;
  const showErrorBanner = devices.isError && devices.data !== undefined && dismissedError !== devices.errorUpdatedAt;

  return (
    <div className="page devices-page">
      <PageHeader
        title="Devices"
        count={devices.data?.length ?? 0}
        actions={(
          <>
            <IconButton label={helpOpen ? 'Hide help' : 'Help'} pressed={helpOpen} aria-expanded={helpOpen} onClick={toggleHelp}>
              <CircleHelp size={16} aria-hidden="true" />
            </IconButton>
            <Button
              icon={<RefreshCw size={14} aria-hidden="true" className={refreshing ? 'is-spinning' : undefined} />}
              onClick={() => void devices.refetch()}
              disabled={devices.isFetching}
            >
              Refresh
            </Button>
            <Link className="btn btn-primary" to="/devices/new"><Plus size={14} aria-hidden="true" />Add new device</Link>
          </>
        )}
      />
      <MobileInfoBox />
      {helpOpen && <DevicesHelp onClose={() => setHelpOpen(false)} />}
      {showErrorBanner && (
        <div className="devices-error-banner" role="alert">
          <span>Failed to load devices</span>
          <IconButton label="Dismiss" onClick={() => setDismissedError(devices.errorUpdatedAt)}><X size={14} aria-hidden="true" /></IconButton>
        </div>
      )}
      {devices.data !== undefined && devices.data.length > 0 && (
        <div className="devices-toolbar">
          <label className="devices-search">
            <Search size={14} aria-hidden="true" className="devices-search-icon" />
            <input
              className="input"
              type="search"
              placeholder="Search devices..."
              aria-label="Search devices"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') setSearch('');
              }}
            />
          </label>
          {selection.selected.size > 1 && <span className="devices-selected">{selection.selected.size} selected</span>}
        </div>
      )}
      <DevicesBody
        state={devices.isPending ? 'loading' : devices.data === undefined ? 'error' : devices.data.length === 0 ? 'empty' : shown.length === 0 ? 'no-results' : 'list'}
        onRetry={() => void devices.refetch()}
        onClearSearch={() => setSearch('')}
      >
        <DeviceTable
          devices={shown}
          columns={columns}
          onPreviewColumns={preview}
          onSaveColumns={save}
          sort={sort}
          onSort={(column) => setSort((current) => toggleDeviceSort(current, column))}
          selection={selection}
          onSelection={setSelection}
          onOpen={(device) => void navigate(`/devices/${encodeURIComponent(device.id)}`)}
        />
      </DevicesBody>
    </div>
  );
}

function DevicesBody({ state, onRetry, onClearSearch, children }: {
  state: 'loading' | 'error' | 'empty' | 'no-results' | 'list';
  onRetry(): void;
  onClearSearch(): void;
  children: ReactNode;
}) {
  switch (state) {
    case 'list':
      return <div className="devices-body">{children}</div>;
    case 'loading':
      return (
        <div className="page-body page-body-center devices-message" role="status">
          <Spinner size={16} />
          <span>Loading devices...</span>
        </div>
      );
    case 'error':
      return (
        <div className="page-body page-body-center devices-message devices-message-error" role="alert">
          <span>Failed to load devices...</span>
          <Button size="sm" onClick={onRetry}>Retry</Button>
        </div>
      );
    case 'empty':
      return (
        <div className="page-body page-body-center">
          <EmptyState
            icon={<Smartphone size={22} />}
            title="No Devices"
            description="Connect an iOS or Android app with the Spyglass SDK and its network requests, logs and events show up here live."
            actions={(
              <>
                <Link className="btn btn-primary" to="/devices/new"><Plus size={14} aria-hidden="true" />Add Device</Link>
                <Link className="btn btn-secondary" to="/settings"><KeyRound size={14} aria-hidden="true" />View API key</Link>
              </>
            )}
          />
        </div>
      );
    case 'no-results':
      return (
        <div className="page-body page-body-center">
          <EmptyState
            icon={<SearchX size={22} />}
            title="No Search Results"
            description="No device matches your search."
            actions={<Button onClick={onClearSearch}>Clear Search</Button>}
          />
        </div>
      );
  }
}
