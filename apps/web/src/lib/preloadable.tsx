import { lazy, type ComponentType } from 'react';

export interface Preloadable<P extends object> {
  /** The screen: rendered at once when its chunk is in, else suspended until it is (React.lazy). */
  Screen: ComponentType<P>;
  /** Fetches and runs the chunk now (once); later calls share the same load. */
  preload(): Promise<ComponentType<P>>;
}

/**
 * A screen in a chunk of its own, like React.lazy, whose chunk can be fetched ahead of its first
 * render (when a link to it shows, or at boot on its address). Once the chunk is in, the screen
 * renders without suspending: a Suspense boundary that showed its fallback is revealed no sooner
 * than 300 ms after it (React's FALLBACK_THROTTLE_MS), so a lazy screen on a page load waited up
 * to 300 ms more after its chunk had arrived before it even started its own requests (bench 51).
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const preload = () => {
    pending ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A failed chunk (offline, a new deploy) is asked again by the next render.
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Screen(props: P) {
    // `loaded` is set before Lazy can resolve, so a screen that once suspended renders as `Loaded`
    // from then on: the element type never switches under a mounted screen.
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return { Screen, preload };
}
