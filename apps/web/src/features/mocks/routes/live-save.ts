import { MOCK_LIMITS } from '@spyglass/protocol';

/**
 * What of a mocked route the editor changes. The enabled and live-updates switches are not here:
 * they send their update at once whether live updates are on or not (spec 002 §4).
 */
export type RouteEditField =
  | 'headers' | 'body' | 'mode' | 'responseMode' | 'method' | 'mockedUrl' | 'statusCode' | 'code' | 'mapRemoteUrl'
  | 'tags' | 'description';

/**
 * Spec 002 §4: with live updates on, headers are saved at once, the body when its editor loses
 * focus, everything else after a 1.5 s pause.
 */
export function liveSaveTiming(field: RouteEditField): 'now' | 'onBlur' | 'afterPause' {
  if (field === 'headers') return 'now';
  if (field === 'body') return 'onBlur';
  return 'afterPause';
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const browserTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Runs `save` for live updates: `changed(field)` saves at once or restarts the 1.5 s pause;
 * `blurred()` saves a body change; `flush()` saves what is pending (the editor is left);
 * `cancel()` forgets it (the route was deleted). A save always reads the editor's latest state.
 */
export class LiveSaver {
  private timer: unknown = null;
  private pendingBody = false;

  constructor(
    private readonly save: () => void,
    private readonly delayMs: number = MOCK_LIMITS.liveUpdateDelayMs,
    private readonly timers: Timers = browserTimers,
  ) {}

  get pending(): boolean {
    return this.timer !== null || this.pendingBody;
  }

  changed(field: RouteEditField): void {
    const timing = liveSaveTiming(field);
    if (timing === 'now') this.saveNow();
    else if (timing === 'onBlur') this.pendingBody = true;
    else this.restartPause();
  }

  blurred(): void {
    if (this.pendingBody) this.saveNow();
  }

  flush(): void {
    if (this.pending) this.saveNow();
  }

  cancel(): void {
    this.clearPause();
    this.pendingBody = false;
  }

  private saveNow(): void {
    this.cancel();
    this.save();
  }

  private restartPause(): void {
    this.clearPause();
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.saveNow();
    }, this.delayMs);
  }

  private clearPause(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}
