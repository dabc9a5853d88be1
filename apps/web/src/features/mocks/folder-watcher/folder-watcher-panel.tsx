import { Eye, FileText, FolderOpen, Unplug } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../ui/button';
import { canPickFolders, FileWatch, listWatchedFiles, pickFolder, PERMISSION_DENIED, WATCHED_EXTENSIONS } from './folder-watcher';

type Folder = { handle: FileSystemDirectoryHandle; files: string[] };

/**
 * Spec 002 §4 'Folder watcher': disconnected → connected (files listed) → a file picked and
 * watched; Disconnect returns to disconnected. The watched file's content goes to `onContent`
 * at once and after each change.
 */
export function FolderWatcherPanel({ onContent }: { onContent(text: string): void }) {
  const [folder, setFolder] = useState<Folder | null>(null);
  const [watched, setWatched] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const watch = useRef<FileWatch | null>(null);
  const contentHandler = useRef(onContent);
  contentHandler.current = onContent;

  const stopWatching = () => {
    watch.current?.stop();
    watch.current = null;
    setWatched(null);
  };
  useEffect(() => () => watch.current?.stop(), []);

  async function connect() {
    setError(null);
    setBusy(true);
    try {
      const handle = await pickFolder();
      if (handle) {
        stopWatching();
        setFolder({ handle, files: await listWatchedFiles(handle) });
      }
    } catch (caught) {
      setError(caught instanceof Error && caught.message === PERMISSION_DENIED ? PERMISSION_DENIED : 'The folder could not be read');
    } finally {
      setBusy(false);
    }
  }

  async function pick(name: string) {
    if (!folder) return;
    stopWatching();
    setError(null);
    const next = new FileWatch(folder.handle, name, (text) => contentHandler.current(text), setError);
    watch.current = next;
    setWatched(name);
    try {
      await next.start();
    } catch (caught) {
      if (watch.current === next) stopWatching();
      setError(caught instanceof DOMException && caught.name === 'NotAllowedError' ? PERMISSION_DENIED : `${name} could not be read`);
    }
  }

  function disconnect() {
    stopWatching();
    setFolder(null);
    setError(null);
  }

  return (
    <section className="folder-watcher" aria-label="Local folder">
      <div className="folder-watcher-head">
        <div>
          <div className="mock-section-title">Local folder</div>
          <div className="mock-section-hint">
            {folder ? `${folder.handle.name || 'Folder'} · ${WATCHED_EXTENSIONS.join(', ')} files` : 'Use a local file as the body; it updates when the file changes.'}
          </div>
        </div>
        {folder ? (
          <Button size="sm" variant="ghost" icon={<Unplug size={14} aria-hidden="true" />} onClick={disconnect}>Disconnect</Button>
        ) : (
          <Button size="sm" icon={<FolderOpen size={14} aria-hidden="true" />} loading={busy} disabled={!canPickFolders()} onClick={() => void connect()}
            title={canPickFolders() ? undefined : 'This browser cannot open local folders'}>
            Connect folder
          </Button>
        )}
      </div>
      {error && <div className="form-message form-message-error" role="alert">{error}</div>}
      {folder && (
        folder.files.length === 0
          ? <div className="mock-empty-line">No {WATCHED_EXTENSIONS.join(', ')} files in this folder</div>
          : (
            <ul className="folder-files" aria-label="Files">
              {folder.files.map((name) => (
                <li key={name}>
                  <button type="button" className={`folder-file${watched === name ? ' is-watched' : ''}`} aria-pressed={watched === name} onClick={() => void pick(name)}>
                    <FileText size={14} aria-hidden="true" />
                    <span className="folder-file-name">{name}</span>
                    {watched === name && <span className="folder-file-watching"><Eye size={13} aria-hidden="true" /> Watching</span>}
                  </button>
                </li>
              ))}
            </ul>
          )
      )}
    </section>
  );
}
