import { formatDuration, formatSize, formatTimestamp, statusClass, statusText, type NetworkItem } from '@spyglass/protocol';
import { useContext, type ReactNode } from 'react';
import { isInFlight, LiveTimersContext, WaitingTimer } from '../table/waiting-timer';
import { BodyView } from './body-view';
import { DetailsTabs } from './details-tabs';
import { REQUEST_TABS, RESPONSE_TABS, type DetailsChoices } from './details-choices';
import { KeyValueTable, type KeyValueRow } from './key-value-table';
import { queryParameters } from './query';
import { TimingBars } from './timing-bars';

export function NetworkDetails({ item, choices, onChoose, mockSection }: {
  item: NetworkItem;
  choices: DetailsChoices;
  onChoose(change: Partial<DetailsChoices>): void;
  mockSection?: ReactNode;
}) {
  const { request, response } = item.details;
  const status = response?.statusCode;
  return (
    <div className="network-details">
      <DetailsTabsRequest item={item} choices={choices} onChoose={onChoose} />
      <DetailsTabsResponse item={item} choices={choices} onChoose={onChoose} mockSection={mockSection}
        status={status === undefined ? null : <StatusChip code={status} />} url={request.url} />
    </div>
  );
}

function DetailsTabsRequest({ item, choices, onChoose }: { item: NetworkItem; choices: DetailsChoices; onChoose(change: Partial<DetailsChoices>): void }) {
  const { request } = item.details;
  const tab = choices.requestTab;
  return (
    <DetailsTabs label="Request" tabs={REQUEST_TABS} active={tab} onChange={(requestTab) => onChoose({ requestTab })}>
      {tab === 'Body' && (
        <BodyView side="request" part={request} url={request.url} view={choices.bodyView} onViewChange={(bodyView) => onChoose({ bodyView })} />
      )}
      {tab === 'Headers' && <KeyValueTable rows={headerRows(request.headers)} label="Request headers" headers empty="No headers" />}
      {tab === 'Query' && <QueryTable url={request.url} captured={request.query} />}
      {tab === 'Details' && (
        <KeyValueTable label="Request details" rows={rows([
          ['Method', request.method],
          ['URL', request.url],
          ['HTTP version', request.httpVersion],
          ['Started', formatTimestamp(request.startedAt ?? item.createdAt, { withDate: true })],
          ['Body size', request.bodySize === undefined ? undefined : formatSize(request.bodySize)],
          ['Mocked by', item.details.mockedBy && mockedByText(item.details.mockedBy)],
          ['Item id', item.id],
        ])} />
      )}
    </DetailsTabs>
  );
}

function DetailsTabsResponse({ item, choices, onChoose, mockSection, status, url }: {
  item: NetworkItem;
  choices: DetailsChoices;
  onChoose(change: Partial<DetailsChoices>): void;
  mockSection?: ReactNode;
  status: ReactNode;
  url: string;
}) {
  const { response, error } = item.details;
  const tab = choices.responseTab;
  return (
    <DetailsTabs label="Response" tabs={RESPONSE_TABS} active={tab} onChange={(responseTab) => onChoose({ responseTab })} extra={status}>
      {mockSection && <div className="details-mock">{mockSection}</div>}
      {!response && tab !== 'Details' && <MissingResponse item={item} />}
      {response && tab === 'Body' && (
        <BodyView side="response" part={response} url={url} view={choices.bodyView} onViewChange={(bodyView) => onChoose({ bodyView })} />
      )}
      {response && tab === 'Headers' && <KeyValueTable rows={headerRows(response.headers)} label="Response headers" headers empty="No headers" />}
      {tab === 'Details' && (
        <>
          <KeyValueTable label="Response details" rows={rows([
            ['Status', response && `${response.statusCode} ${statusText(response.statusCode)}`.trim()],
            ['HTTP version', response?.httpVersion],
            ['Received', response?.receivedAt && formatTimestamp(response.receivedAt, { withDate: true })],
            ['Body size', response?.bodySize === undefined ? undefined : formatSize(response.bodySize)],
            ['Duration', formatDuration(item.duration)],
            ['Error', error],
          ])} />
          <TimingBars details={item.details} duration={item.duration} />
        </>
      )}
    </DetailsTabs>
  );
}

function QueryTable({ url, captured }: { url: string; captured?: Record<string, string> }) {
  const parameters = queryParameters(url, captured);
  // Spec 001 §5: an invalid URL shows No data available.
  if (parameters === null) return <p className="details-empty">No data available</p>;
  return <KeyValueTable rows={parameters.map(([key, value]) => ({ key, value }))} label="Query parameters" empty="No query parameters" />;
}

/** Spec 001 §5: the code, with a text only for the codes the spec names. */
export function StatusChip({ code }: { code: number }) {
  const tone = statusClass(code);
  return <span className={`status-chip${tone ? ` is-${tone}` : ''}`} aria-label={`Status ${code} ${statusText(code)}`.trim()}>{code} {statusText(code)}</span>;
}

const headerRows = (headers: Record<string, string>): KeyValueRow[] => Object.entries(headers).map(([key, value]) => ({ key, value }));

/** Rows of the values that are known; unknown ones are left out rather than shown empty. */
function rows(pairs: Array<[string, string | undefined | null | false]>): KeyValueRow[] {
  return pairs.filter((pair): pair is [string, string] => typeof pair[1] === 'string' && pair[1] !== '').map(([key, value]) => ({ key, value }));
}

function mockedByText(mockedBy: NonNullable<NetworkItem['details']['mockedBy']>): string {
  switch (mockedBy.kind) {
    case 'item': return 'Mock of this request';
    case 'route': return `Mocked route ${mockedBy.id}`;
    case 'mapRemote': return mockedBy.mappedUrl ? `Mapped to ${mockedBy.mappedUrl}` : `Mapped by route ${mockedBy.id}`;
  }
}

/**
 * Where the response would be. A request on a live device that is still waiting says so, with its
 * timer ('No response' read like a failure); one that failed, or was saved before its answer, has none.
 */
function MissingResponse({ item }: { item: NetworkItem }) {
  const live = useContext(LiveTimersContext);
  const { error } = item.details;
  if (live && isInFlight(item)) {
    return <p className="details-empty details-waiting">Waiting for the response… <WaitingTimer item={item} /></p>;
  }
  return <p className={error ? 'details-error' : 'details-empty'}>{error ? `No response: ${error}` : 'No response'}</p>;
}
