/**
 * The local folder watcher (spec 002 §2, §4, §5): a folder opened with the browser's directory
 * picker (readwrite), its js, json, txt and html files listed, one file watched with a
 * FileSystemObserver where the browser has one, else by polling every second.
 *
 * Test seam: the folder comes from `window.showDirectoryPicker`, which a Chromium test replaces
 * with a function answering a real handle of the origin-private file system
 * (`navigator.storage.getDirectory()`): the native picker cannot be driven by a test, everything
 * after it (listing, reading, watching) runs unchanged on the real handle (e2e/mocks.test.ts).
 */

/** Spec 002 §5: only these extensions are listed. */
export const WATCHED_EXTENSIONS = ['js', 'json', 'txt', 'html'] as const;
export const POLL_INTERVAL_MS = 1000;
export const PERMISSION_DENIED = 'Permission denied';

export function isWatchedFile(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return false;
  return (WATCHED_EXTENSIONS as readonly string[]).includes(name.slice(dot + 1).toLowerCase());
}

/** What of the File System Access API is used (not all of it is in TypeScript's DOM library yet). */
interface PermissionHandle {
  queryPermission?(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
  requestPermission?(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
}
type DirectoryHandle = FileSystemDirectoryHandle & PermissionHandle & { values(): AsyncIterable<FileSystemHandle> };
interface FileSystemObserverLike {
  observe(handle: FileSystemHandle): Promise<void>;
  disconnect(): void;
}
type FileSystemObserverConstructor = new (callback: () => void) => FileSystemObserverLike;
type PickerWindow = Window & {
  showDirectoryPicker?(options: { mode: 'read' | 'readwrite' }): Promise<FileSystemDirectoryHandle>;
  FileSystemObserver?: FileSystemObserverConstructor;
};

export const canPickFolders = () => typeof (window as PickerWindow).showDirectoryPicker === 'function';

/**
 * Asks for a folder with readwrite permission. Resolves null when the user closes the picker;
 * throws 'Permission denied' when the browser or the user refuses access.
 */
export async function pickFolder(): Promise<FileSystemDirectoryHandle | null> {
  const picker = (window as PickerWindow).showDirectoryPicker;
  if (!picker) throw new Error(PERMISSION_DENIED);
  let handle: DirectoryHandle;
  try {
    handle = await picker.call(window, { mode: 'readwrite' }) as DirectoryHandle;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    throw new Error(PERMISSION_DENIED, { cause: error });
  }
  const state = await (handle.queryPermission?.({ mode: 'readwrite' }) ?? 'granted');
  if (state !== 'granted' && (await handle.requestPermission?.({ mode: 'readwrite' })) !== 'granted') throw new Error(PERMISSION_DENIED);
  return handle;
}

/** The folder's files that may be watched, by name. */
export async function listWatchedFiles(folder: FileSystemDirectoryHandle): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of (folder as DirectoryHandle).values()) {
    if (entry.kind === 'file' && isWatchedFile(entry.name)) names.push(entry.name);
  }
  return names.sort((a, b) => a.localeCompare(b));
}

/**
 * Watches one file: `onContent` gets its text at once and again after every change; `onError`
 * gets a message when it can no longer be read (deleted, permission withdrawn).
 */
export class FileWatch {
  private stopped = false;
  private observer: FileSystemObserverLike | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private last: { modified: number; size: number } | null = null;
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly folder: FileSystemDirectoryHandle,
    readonly fileName: string,
    private readonly onContent: (text: string) => void,
    private readonly onError: (message: string) => void,
  ) {}

  async start(): Promise<void> {
    const file = await this.folder.getFileHandle(this.fileName);
    await this.read(true);
    if (this.stopped) return;
    const Observer = (window as PickerWindow).FileSystemObserver;
    if (Observer) {
      this.observer = new Observer(() => { this.queueRead(); });
      try {
        await this.observer.observe(file);
        return;
      } catch {
        // Observing is refused for some handles; polling always works.
        this.observer.disconnect();
        this.observer = null;
      }
    }
    this.timer = setInterval(() => this.queueRead(), POLL_INTERVAL_MS);
  }

  stop(): void {
    this.stopped = true;
    this.observer?.disconnect();
    if (this.timer !== null) clearInterval(this.timer);
  }

  /** Reads one after the other, so that a slow read cannot hand on older content after a newer one. */
  private queueRead(): void {
    this.reading = this.reading.then(() => this.read(false));
  }

  private async read(always: boolean): Promise<void> {
    if (this.stopped) return;
    try {
      const file = await (await this.folder.getFileHandle(this.fileName)).getFile();
      const stamp = { modified: file.lastModified, size: file.size };
      if (!always && this.last && this.last.modified === stamp.modified && this.last.size === stamp.size) return;
      this.last = stamp;
      const text = await file.text();
      if (!this.stopped) this.onContent(text);
    } catch (error) {
      if (this.stopped) return;
      this.onError(error instanceof DOMException && error.name === 'NotAllowedError' ? PERMISSION_DENIED : `${this.fileName} can no longer be read`);
    }
  }
}
