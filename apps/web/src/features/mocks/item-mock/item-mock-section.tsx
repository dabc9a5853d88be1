import { INTERCEPTED_HEADER, MOCK_LIMITS, statusText, type CapturedItem, type NetworkItem } from '@spyglass/protocol';
import { BookmarkPlus, RotateCcw, Zap } from 'lucide-react';
import { useId, useMemo, useRef, useState } from 'react';
import { Button } from '../../../ui/button';
import { Switch } from '../../../ui/switch';
import { Tooltip } from '../../../ui/tooltip';
import { reportTourEvent } from '../../../lib/tour-events';
import { BodyEditor } from '../editor/body-editor';
import { HeaderRows, type HeaderRow } from '../header-rows';
import { useInterceptedFlash } from '../intercepted-flash';
import { isStatusInRange, parseDelayInput, parseStatusInput } from '../mock-rules';
import { putItemMock } from '../mocks.api';
import { saveItemAsMockRoute } from '../save-as-mock-route';
import '../mocks.css';
import { acceptsBody, initialDraft, itemMockToSend, originalBody, type ItemMockDraft } from './item-mock-data';
import { LatestSender } from './latest-sender';

const DELAY_TOOLTIP = 'Delay in milliseconds. 0 will disable delay';

/**
 * Mocking from a captured item (spec 001 'Details panel', §4, §5): the 'Enable Mock ⚡' toggle
 * with its delay, and while on, the editor of status, URL, headers and body. Every change is sent
 * at once (PUT /v1/devices/{id}/requests/{requestId}/mock); a failed update is only logged.
 * `onMockChanged` gets the mock as the server answered it (the details panel keeps the full item).
 */
export function ItemMockSection({ item, deviceId, onMockChanged }: {
  item: NetworkItem;
  deviceId: string;
  onMockChanged: (state: Pick<CapturedItem, 'isMocked' | 'mock' | 'mockData'>) => void;
}) {
  const mockSwitchId = useId();
  const [draft, setDraftState] = useState<ItemMockDraft>(() => initialDraft(item));
  const draftRef = useRef(draft);
  const [statusInput, setStatusInput] = useState(String(draft.statusCode));
  const [delayInput, setDelayInput] = useState(draft.delayMs === null ? '' : String(draft.delayMs));
  const [body, setBody] = useState(draft.body);
  const [sender] = useState(() => new LatestSender<ItemMockDraft>(
    async (next) => {
      const answer = await putItemMock(deviceId, item.id, itemMockToSend(item, next));
      onMockChanged({ isMocked: answer.isMocked, mock: answer.mock, mockData: answer.mockData });
    },
    (error) => console.error('The mock update failed', error),
  ));
  const flash = useInterceptedFlash(item.id);
  const ids = { status: useId(), delay: useId(), url: useId() };

  function update(patch: Partial<ItemMockDraft>) {
    const next = { ...draftRef.current, ...patch };
    draftRef.current = next;
    setDraftState(next);
    sender.push(next);
    if (next.isMocked && ('statusCode' in patch || 'body' in patch || 'headers' in patch)) reportTourEvent('responseModified');
  }

  function changeBody(text: string) {
    setBody(text);
    if (acceptsBody(text, draftRef.current.headers)) update({ body: text });
  }

  const headerRows = useMemo<HeaderRow[]>(() => Object.entries(draft.headers).map(([key, value]) => ({ key, value })), [draft.headers]);
  function changeHeaders(rows: HeaderRow[]) {
    const headers: Record<string, string> = {};
    for (const row of rows) if (row.key.trim() !== '') headers[row.key.trim()] = row.value;
    headers[INTERCEPTED_HEADER] = item.id;
    update({ headers });
  }

  const contentType = Object.entries(draft.headers).find(([key]) => key.toLowerCase() === 'content-type')?.[1] ?? null;

  return (
    <section className={`item-mock${draft.isMocked ? '' : ' is-off'}`} aria-label="Mock">
      <div className="item-mock-head">
        <span className="item-mock-toggle">
          <Switch id={mockSwitchId} label="Enable Mock ⚡" checked={draft.isMocked} onChange={(event) => update({ isMocked: event.target.checked })} />
          <label htmlFor={mockSwitchId} aria-hidden="true">Enable Mock ⚡</label>
        </span>
        {flash > 0 || item.isMocked || draft.isMocked ? (
          <span key={flash} className={`intercepted-icon${flash > 0 ? ' is-flashing' : ''}`} role="img" aria-label={flash > 0 ? 'Intercepted now' : 'Intercepted'} data-flashing={flash > 0 || undefined}>
            <Zap size={15} aria-hidden="true" />
          </span>
        ) : null}
        <div className="field item-mock-delay">
          <Tooltip content={DELAY_TOOLTIP}>
            <label className="field-label" htmlFor={ids.delay}>Delay</label>
          </Tooltip>
          <input id={ids.delay} className="input input-sm" inputMode="numeric" placeholder="ms" title={DELAY_TOOLTIP} value={delayInput} disabled={!draft.isMocked}
            onChange={(event) => {
              const delayMs = parseDelayInput(event.target.value);
              // Typing a minus sign is the start of a number, not yet a negative one.
              setDelayInput(event.target.value === '-' ? '-' : delayMs === null ? '' : String(delayMs));
              update({ delayMs });
            }} />
        </div>
        <span className="spacer" />
        <Button size="sm" variant="ghost" icon={<BookmarkPlus size={14} aria-hidden="true" />} onClick={() => void saveItemAsMockRoute(deviceId, item)}>
          Save as Mock Route
        </Button>
      </div>

      {draft.isMocked && (
        <>
          <div className="item-mock-fields">
            <div className="field">
              <label className="field-label" htmlFor={ids.status}>Status</label>
              <div className="status-input">
                <input id={ids.status} className="input input-sm" type="number" min={MOCK_LIMITS.statusMin} max={MOCK_LIMITS.statusMax} value={statusInput}
                  onChange={(event) => {
                    setStatusInput(event.target.value);
                    const statusCode = parseStatusInput(event.target.value);
                    if (isStatusInRange(statusCode)) update({ statusCode });
                  }}
                  onBlur={() => setStatusInput(String(draftRef.current.statusCode))} />
                <span className="status-text">{statusText(draft.statusCode)}</span>
              </div>
            </div>
            <div className="field item-mock-url">
              <label className="field-label" htmlFor={ids.url}>URL</label>
              <input id={ids.url} className="input input-sm input-mono" value={draft.mockedUrl} placeholder={item.details.request.url}
                onChange={(event) => update({ mockedUrl: event.target.value })} />
            </div>
          </div>
          <div className="item-mock-editors">
            <div className="field">
              <span className="field-label">Headers</span>
              <HeaderRows rows={headerRows} newRow={{ key: 'Key', value: 'Value' }} lockedKey={INTERCEPTED_HEADER} onChange={changeHeaders} />
            </div>
            <div className="field">
              <span className="field-label">Body</span>
              <BodyEditor label="Mock body" value={body} contentType={contentType} height="200px" onChange={changeBody}
                actions={(
                  <Button size="sm" variant="ghost" icon={<RotateCcw size={14} aria-hidden="true" />} disabled={body === originalBody(item)}
                    onClick={() => {
                      setBody(originalBody(item));
                      update({ body: originalBody(item) });
                    }}>
                    Revert
                  </Button>
                )} />
            </div>
          </div>
        </>
      )}
    </section>
  );
}
