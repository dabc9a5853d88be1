/**
 * Runs long computations (re-filtering or re-sorting a million items) as a series of short
 * slices so that input and painting go on in between. The work is a generator that yields after
 * each small chunk; the slicer keeps calling it until its time budget for the slice is spent,
 * then hands control back to the browser through a macrotask.
 */
export interface SliceHost {
  /** Schedules `task` as a new macrotask; answers a function that cancels it. */
  post(task: () => void): () => void;
  now(): number;
}

export interface SlicedTask {
  cancel(): void;
}

/**
 * MessageChannel posts run before timers and are not clamped to 4 ms like nested setTimeout,
 * which is why React's scheduler uses them too. Present in browsers and in Node.
 */
export function createMessageChannelHost(): SliceHost {
  const queue = new Set<() => void>();
  const channel = new MessageChannel();
  // Node only: a port keeps the process alive while referenced, so it is referenced only while
  // work is queued (an idle slicer must not hold a script open; a pending one must finish).
  const port = channel.port1 as unknown as ReceivingPort;
  port.addEventListener('message', () => {
    const [first] = queue;
    if (first) {
      queue.delete(first);
      first();
    }
    if (queue.size === 0) port.unref?.();
  });
  port.start();
  port.unref?.();
  return {
    post(task) {
      const entry = () => task();
      queue.add(entry);
      port.ref?.();
      channel.port2.postMessage(null);
      return () => {
        queue.delete(entry);
        if (queue.size === 0) port.unref?.();
      };
    },
    now: () => performance.now(),
  };
}

/** What both the DOM's and Node's MessagePort offer (ref/unref: Node only). */
interface ReceivingPort {
  addEventListener(type: 'message', listener: () => void): void;
  start(): void;
  ref?: () => void;
  unref?: () => void;
}

let shared: SliceHost | null = null;

/** One MessageChannel host for the page, made on first use. */
export function sharedSliceHost(): SliceHost {
  shared ??= createMessageChannelHost();
  return shared;
}

/**
 * Gives the page a turn (input, paint) through its MessageChannel: a nested setTimeout(0) is
 * clamped to 4 ms, which over the 1,000 pauses of a 100,000-item export alone would add 4 s of
 * idle waiting.
 */
export const macrotask = () => new Promise<void>((resolve) => void sharedSliceHost().post(resolve));

/** Below one 60 Hz frame, leaving room for the frame's own rendering. */
export const DEFAULT_SLICE_MS = 8;

export function runSliced<T>(
  work: Iterator<unknown, T>,
  onDone: (result: T) => void,
  host: SliceHost,
  sliceMs = DEFAULT_SLICE_MS,
): SlicedTask {
  let cancelled = false;
  let cancelPost: (() => void) | null = null;
  const slice = () => {
    cancelPost = null;
    if (cancelled) return;
    const started = host.now();
    for (;;) {
      const step = work.next();
      if (step.done) {
        onDone(step.value);
        return;
      }
      if (host.now() - started >= sliceMs) break;
    }
    cancelPost = host.post(slice);
  };
  cancelPost = host.post(slice);
  return {
    cancel() {
      cancelled = true;
      cancelPost?.();
    },
  };
}
