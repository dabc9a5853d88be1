import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import './media-viewer.css';

export interface Media {
  kind: 'image' | 'video';
  /** An object URL or data URL made from captured bytes: never a URL the captured data names. */
  src: string;
  /** Accessible name: the screenshot's or the body's description. */
  name: string;
}

interface MediaViewerApi {
  show(media: Media): void;
}

const MediaViewerContext = createContext<MediaViewerApi | null>(null);

/** Enlarging an image or a screenshot opens it in the panel's media viewer. */
export function useMediaViewer(): MediaViewerApi {
  const api = useContext(MediaViewerContext);
  if (!api) throw new Error('useMediaViewer needs a MediaViewerProvider');
  return api;
}

/**
 * Holds the one media overlay of a details panel. Its Escape is handled (and marked handled, as
 * Radix does) before the panel's own Escape listener sees it, so Escape closes the overlay first.
 */
export function MediaViewerProvider({ children }: { children: ReactNode }) {
  const [media, setMedia] = useState<Media | null>(null);
  const api = useMemo(() => ({ show: setMedia }), []);
  return (
    <MediaViewerContext.Provider value={api}>
      {children}
      <MediaViewer media={media} onClose={() => setMedia(null)} />
    </MediaViewerContext.Provider>
  );
}

/** Spec 001 'Details panel': the media viewer overlay closes with Escape or a ✕ button. */
export function MediaViewer({ media, onClose }: { media: Media | null; onClose(): void }) {
  return (
    <RadixDialog.Root open={media !== null} onOpenChange={(open) => !open && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="media-viewer-overlay" />
        <RadixDialog.Content className="media-viewer" aria-describedby={undefined} onClick={(event) => {
          // A click on the dark surround closes, a click on the picture does not.
          if (event.target === event.currentTarget) onClose();
        }}>
          <RadixDialog.Title className="media-viewer-title">{media?.name}</RadixDialog.Title>
          <RadixDialog.Close className="media-viewer-close" aria-label="Close">
            <X size={18} aria-hidden="true" />
          </RadixDialog.Close>
          {media?.kind === 'image' && <img className="media-viewer-media" src={media.src} alt={media.name} />}
          {media?.kind === 'video' && (
            <video className="media-viewer-media" src={media.src} controls autoPlay>
              Your browser does not support the video tag.
            </video>
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
