import {
  DYNAMIC_STARTER_SCRIPT, explainRoute, MOCK_LIMITS, MOCK_MESSAGES, MOCK_METHODS, statusText,
  type MockData, type MockedRoute, type MockMethod,
} from '@spyglass/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Radio, Save, Trash2 } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../../lib/api';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { Switch } from '../../../ui/switch';
import { BodyEditor } from '../editor/body-editor';
import { contentTypeOf } from '../editor/editor-languages';
import { ExamplesPanel } from '../examples-panel';
import { FolderWatcherPanel } from '../folder-watcher/folder-watcher-panel';
import { HeaderRows } from '../header-rows';
import { DYNAMIC_EXAMPLES, MAP_REMOTE_EXAMPLES, STATIC_EXAMPLES } from '../mock-examples';
import { errorExcerpt, isStatusInRange, parseStatusInput, validateMockData, type RouteErrors } from '../mock-rules';
import { createMockedRoute, deleteMockedRoute, forgetRoute, publishMockedRoutes, storeRoute, updateMockedRoute } from '../mocks.api';
import { Segmented } from '../segmented';
import { LiveSaver, type RouteEditField } from './live-save';
import { draftOf, sameDraft, sentMockData, type RouteDraft } from './route-draft';
import type { ListedRoute } from './route-list-order';
import { RouteConsole } from './route-console';
import { SimulatorPanel } from './simulator-panel';
import { TagsInput } from './tags-input';

const toastOptions = { duration: MOCK_LIMITS.toastMs };

export interface RouteEditorProps {
  route: ListedRoute;
  /** An unsaved route was created: it now has the server's id. */
  onCreated(localId: string, route: MockedRoute): void;
  /** The route is gone (deleted on the server, or an unsaved one dropped). */
  onDeleted(id: string): void;
}

/**
 * The details editor of a mocked route (spec 002 'Mock routes view', §4, §5, §8). Mount it with
 * `key={route.id}`: the draft belongs to one route.
 */
export function RouteEditor({ route, onCreated, onDeleted }: RouteEditorProps) {
  const queryClient = useQueryClient();
  const isUnsaved = Boolean(route.isUnsaved);
  const [draft, setDraftState] = useState<RouteDraft>(() => draftOf(route));
  const draftRef = useRef(draft);
  const baseline = useRef(draftOf(route));
  const [errors, setErrors] = useState<RouteErrors>({});
  const [scriptError, setScriptError] = useState<string | null>(null);
  const [statusInput, setStatusInput] = useState(String(route.mockData.statusCode));
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const saveQueue = useRef<Promise<void>>(Promise.resolve());
  const ids = { url: useId(), status: useId(), method: useId(), target: useId(), description: useId() };

  const setDraft = (next: RouteDraft) => {
    draftRef.current = next;
    setDraftState(next);
  };

  /** Saves the latest draft; saves run one after the other so that answers cannot overtake. */
  const save = (): Promise<void> => {
    const run = saveQueue.current.then(() => saveNow());
    saveQueue.current = run.catch(() => undefined);
    return run;
  };

  async function saveNow(): Promise<void> {
    const current = draftRef.current;
    const found = validateMockData(current.mockData);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (!isUnsaved && sameDraft(current, baseline.current)) return;
    setSaving(true);
    try {
      const body = { mockData: sentMockData(current), isEnabled: current.isEnabled, tags: current.tags, description: current.description, areLiveUpdatesEnabled: current.areLiveUpdatesEnabled };
      if (isUnsaved) {
        const created = await createMockedRoute({ deviceId: route.deviceId, ...body });
        baseline.current = current;
        storeRoute(queryClient, created);
        toast.success(MOCK_MESSAGES.created, toastOptions);
        onCreated(route.id, created);
      } else {
        const updated = await updateMockedRoute(route.id, { ...body, updatedAt: new Date().toISOString() });
        baseline.current = current;
        storeRoute(queryClient, updated);
        toast.success(MOCK_MESSAGES.updated, toastOptions);
      }
      setScriptError(null);
    } catch (error) {
      // The server runs a dynamic script once in its sandbox before saving (spec 002 §5): a failure
      // shows under the code editor, nothing is saved.
      if (error instanceof ApiError && error.body?.codeError) setScriptError(errorExcerpt(error.message));
      else toast.error(errorMessage(error, isUnsaved ? 'Failed to create mocked route' : 'Failed to update mocked route'));
    } finally {
      setSaving(false);
    }
  }

  // The saver lives as long as the editor and always runs the latest `save`.
  const saveRef = useRef(save);
  saveRef.current = save;
  const [saver] = useState(() => new LiveSaver(() => void saveRef.current()));
  const liveOn = draft.areLiveUpdatesEnabled && !isUnsaved;
  // Leaving the route (another one picked, the view closed) saves what live updates still owe.
  useEffect(() => () => saver.flush(), [saver]);

  function change(field: RouteEditField, next: RouteDraft) {
    setDraft(next);
    if (draftRef.current.areLiveUpdatesEnabled && !isUnsaved) saver.changed(field);
  }
  const changeMock = (field: RouteEditField, patch: Partial<MockData>) => {
    // A script error belongs to the code that was refused; editing it starts over.
    if (field === 'code' || field === 'responseMode') setScriptError(null);
    change(field, { ...draftRef.current, mockData: { ...draftRef.current.mockData, ...patch } });
  };

  /** The enabled and live-updates switches flip at once and send their update (spec 002 §4). */
  async function flip(patch: Pick<RouteDraft, 'isEnabled'> | Pick<RouteDraft, 'areLiveUpdatesEnabled'>) {
    const previous = draftRef.current;
    setDraft({ ...previous, ...patch });
    if (isUnsaved) return;
    try {
      const updated = await updateMockedRoute(route.id, { ...patch, updatedAt: new Date().toISOString() });
      baseline.current = { ...baseline.current, ...patch };
      storeRoute(queryClient, updated);
      toast.success(MOCK_MESSAGES.updated, toastOptions);
    } catch (error) {
      setDraft({ ...draftRef.current, ...('isEnabled' in patch ? { isEnabled: previous.isEnabled } : { areLiveUpdatesEnabled: previous.areLiveUpdatesEnabled }) });
      toast.error(errorMessage(error, 'Failed to update mocked route'));
    }
  }

  async function remove() {
    setConfirmDelete(false);
    saver.cancel();
    if (isUnsaved) {
      onDeleted(route.id);
      return;
    }
    try {
      await deleteMockedRoute(route.id);
      forgetRoute(queryClient, route.deviceId, route.id);
      toast.success(MOCK_MESSAGES.deleted, toastOptions);
      onDeleted(route.id);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to delete mocked route'));
    }
  }

  async function publish() {
    setPublishing(true);
    try {
      const result = await publishMockedRoutes(route.id);
      toast.success(`Published ${result.routes} mocked route${result.routes === 1 ? '' : 's'} to the device`);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to publish mocked routes'));
    } finally {
      setPublishing(false);
    }
  }

  const { mockData } = draft;
  const contentType = contentTypeOf(mockData.headers);
  const dirty = isUnsaved || !sameDraft(draft, baseline.current);
  const explanation = useMemo(() => explainRoute({ id: route.id, createdAt: route.createdAt, isEnabled: draft.isEnabled, mockData }), [route.id, route.createdAt, draft.isEnabled, mockData]);
  const statusLabel = statusText(mockData.statusCode);

  return (
    <div className="route-editor">
      <div className="route-editor-bar">
        <span className="route-enabled">
          <Switch label="Enabled" checked={draft.isEnabled} onChange={(event) => void flip({ isEnabled: event.target.checked })} />
          <span aria-hidden="true">{draft.isEnabled ? 'Enabled' : 'Disabled'}</span>
        </span>
        <span className="route-editor-title">
          <span className={`method-badge method-${mockData.method.toLowerCase()}`}>{mockData.method}</span>
          <span className="route-editor-url">{mockData.mockedUrl || 'New mocked route'}</span>
        </span>
        <span className="route-editor-actions">
          {!isUnsaved && (
            <Button size="sm" variant="ghost" icon={<Radio size={14} aria-hidden="true" />} loading={publishing} onClick={() => void publish()}>Publish</Button>
          )}
          {liveOn && <span className="route-save-state" aria-live="polite">{saving ? 'Saving...' : dirty ? 'Unsaved changes' : 'All changes saved'}</span>}
          {!liveOn && (
            <Button size="sm" variant="primary" icon={<Save size={14} aria-hidden="true" />} loading={saving} disabled={!dirty} onClick={() => void save()}>
              {isUnsaved ? 'Create' : 'Save'}
            </Button>
          )}
          <Button size="sm" variant="ghost" icon={<Trash2 size={14} aria-hidden="true" />} onClick={() => setConfirmDelete(true)}>Delete</Button>
        </span>
      </div>
      {mockData.mockedUrl.trim() !== '' && <p className="route-explanation">{explanation}</p>}

      <div className="route-editor-body">
        <section className="mock-card" aria-label="Request">
          <div className="mock-row">
            <div className="field">
              <span className="field-label">Mode</span>
              <Segmented label="Mode" value={mockData.mode} onChange={(mode) => changeMock('mode', { mode })}
                options={[{ value: 'default', label: 'Default' }, { value: 'mapRemote', label: 'Map Remote' }]} />
            </div>
            <div className="field">
              <label className="field-label" htmlFor={ids.method}>Method</label>
              <select id={ids.method} className="input" value={mockData.method} onChange={(event) => changeMock('method', { method: event.target.value as MockMethod })}>
                {MOCK_METHODS.map((method) => <option key={method}>{method}</option>)}
              </select>
            </div>
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.url}>Mocked URL</label>
            <input id={ids.url} className="input input-mono" placeholder="https://api.example.com/todos/*" value={mockData.mockedUrl}
              aria-invalid={Boolean(errors.mockedUrl) || undefined}
              onChange={(event) => changeMock('mockedUrl', { mockedUrl: event.target.value })} />
            {errors.mockedUrl ? <div className="field-error" role="alert">{errors.mockedUrl}</div>
              : <div className="field-hint">'*' is a wildcard in the path or in a query value.</div>}
          </div>
          {mockData.mode === 'mapRemote' && (
            <div className="field">
              <label className="field-label" htmlFor={ids.target}>Map remote URL</label>
              <input id={ids.target} className="input input-mono" placeholder="http://localhost:3000" value={mockData.mapRemoteUrl}
                aria-invalid={Boolean(errors.mapRemoteUrl) || undefined}
                onChange={(event) => changeMock('mapRemoteUrl', { mapRemoteUrl: event.target.value })} />
              {errors.mapRemoteUrl && <div className="field-error" role="alert">{errors.mapRemoteUrl}</div>}
            </div>
          )}
          {mockData.mode === 'mapRemote' && <ExamplesPanel examples={MAP_REMOTE_EXAMPLES} />}
        </section>

        {mockData.mode === 'default' && (
          <section className="mock-card" aria-label="Response">
            <div className="mock-row">
              <div className="field">
                <span className="field-label">Response mode</span>
                <Segmented label="Response mode" value={mockData.responseMode}
                  options={[{ value: 'static', label: 'Static' }, { value: 'dynamic', label: 'Dynamic' }]}
                  onChange={(responseMode) => changeMock('responseMode', {
                    responseMode,
                    // Spec 002 §4: switching to dynamic fills an empty code with the starter script.
                    code: responseMode === 'dynamic' && mockData.code.trim() === '' ? DYNAMIC_STARTER_SCRIPT : mockData.code,
                  })} />
              </div>
              {mockData.responseMode === 'static' && (
                <div className="field status-field">
                  <label className="field-label" htmlFor={ids.status}>Status code</label>
                  <div className="status-input">
                    <input id={ids.status} className="input" type="number" inputMode="numeric" min={MOCK_LIMITS.statusMin} max={MOCK_LIMITS.statusMax}
                      value={statusInput} aria-invalid={Boolean(errors.statusCode) || undefined}
                      onChange={(event) => {
                        setStatusInput(event.target.value);
                        changeMock('statusCode', { statusCode: parseStatusInput(event.target.value) });
                      }}
                      onBlur={() => setStatusInput(String(draftRef.current.mockData.statusCode))} />
                    <span className="status-text">{isStatusInRange(mockData.statusCode) ? statusLabel : ''}</span>
                  </div>
                  {errors.statusCode && <div className="field-error" role="alert">{errors.statusCode}</div>}
                </div>
              )}
            </div>

            {mockData.responseMode === 'static' ? (
              <>
                <div className="field">
                  <span className="field-label">Headers</span>
                  <HeaderRows rows={mockData.headers} newRow={{ key: '', value: '' }} onChange={(headers) => changeMock('headers', { headers })} />
                </div>
                <div className="field">
                  <span className="field-label">Body</span>
                  <BodyEditor label="Body" value={mockData.body} contentType={contentType} height="300px" fullscreen
                    onChange={(body) => changeMock('body', { body })}
                    onBlur={() => { if (liveOn) saver.blurred(); }} />
                  <ExamplesPanel examples={STATIC_EXAMPLES} onUse={(body) => {
                    changeMock('body', { body });
                    if (liveOn) saver.blurred();
                  }} />
                  <FolderWatcherPanel onContent={(body) => {
                    if (body === draftRef.current.mockData.body) return;
                    changeMock('body', { body });
                    if (liveOn) saver.blurred();
                  }} />
                </div>
              </>
            ) : (
              <div className="field">
                <span className="field-label">Code</span>
                <BodyEditor label="Code" value={mockData.code} contentType={null} language="javascript" height="180px" fullscreen prettifiable={false}
                  onChange={(code) => changeMock('code', { code })} />
                {errors.code && <div className="field-error" role="alert">{errors.code}</div>}
                {scriptError && <pre className="script-error" role="alert">{scriptError}</pre>}
                <ExamplesPanel examples={DYNAMIC_EXAMPLES} onUse={(code) => changeMock('code', { code })} />
              </div>
            )}
          </section>
        )}

        <section className="mock-card" aria-label="Details">
          <div className="field">
            <span className="field-label">Tags</span>
            <TagsInput tags={draft.tags} onChange={(tags) => change('tags', { ...draftRef.current, tags })} />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.description}>Description</label>
            <textarea id={ids.description} className="input textarea" rows={2} maxLength={MOCK_LIMITS.maxDescription} value={draft.description}
              onChange={(event) => change('description', { ...draftRef.current, description: event.target.value })} />
          </div>
          <div className="mock-switch-row">
            <Switch label="Live updates" checked={draft.areLiveUpdatesEnabled} onChange={(event) => void flip({ areLiveUpdatesEnabled: event.target.checked })} />
            <div>
              <div className="mock-switch-label">Live updates</div>
              <div className="mock-section-hint">Headers are saved at once, the body when it loses focus, everything else after a 1.5 s pause.</div>
            </div>
          </div>
        </section>

        {mockData.mode === 'default' && mockData.responseMode === 'dynamic' && <RouteConsole entries={route.mockData.consoleLog} />}
        <SimulatorPanel routeId={isUnsaved ? null : route.id} mockData={sentMockData(draft)}
          onSimulated={() => void queryClient.invalidateQueries({ queryKey: ['mocked-routes', route.deviceId] })} />
      </div>

      <Dialog open={confirmDelete} onOpenChange={setConfirmDelete} title="Delete mocked route" description={MOCK_MESSAGES.deleteConfirmation}
        actions={(
          <>
            <Button onClick={() => setConfirmDelete(false)}>Cancel</Button>
            <Button variant="danger" onClick={() => void remove()}>Delete</Button>
          </>
        )} />
    </div>
  );
}
