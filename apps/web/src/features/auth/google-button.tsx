import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { FormMessage } from '../../ui/form-message';
import { Spinner } from '../../ui/spinner';
import { googleSignIn } from './auth.api';
import type { Profile } from '@spyglass/protocol';

const GIS_SRC = 'https://accounts.google.com/gsi/client';

/** The part of Google Identity Services we use (https://developers.google.com/identity/gsi/web/reference/js-reference). */
interface GoogleIdentity {
  initialize(options: { client_id: string; callback(response: { credential?: string }): void; ux_mode?: 'popup'; context?: string }): void;
  renderButton(parent: HTMLElement, options: Record<string, string | number>): void;
}

declare global {
  interface Window {
    google?: { accounts: { id: GoogleIdentity } };
  }
}

let scriptPromise: Promise<GoogleIdentity> | null = null;

/** Loads the Google script once, and only on servers that configured a client id. */
function loadGoogleIdentity(): Promise<GoogleIdentity> {
  scriptPromise ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GIS_SRC;
    script.async = true;
    script.onload = () => (window.google ? resolve(window.google.accounts.id) : reject(new Error('Google Identity Services missing')));
    script.onerror = () => reject(new Error('Google Identity Services could not be loaded'));
    document.head.append(script);
  }).catch((error: unknown) => {
    scriptPromise = null;
    throw error;
  });
  return scriptPromise;
}

/**
 * Google's own button. The ID token it hands over carries the email and profile claims (the
 * scopes of spec 000 §2.3); the server verifies it and answers our token and the profile. With
 * `onCredential`, the ID token goes there instead (a fresh sign-in that confirms an e-mail change).
 */
export function GoogleButton({ clientId, mode, theme, onSignedIn, onCredential }: {
  clientId: string;
  mode: 'signin' | 'signup';
  theme: 'light' | 'dark';
  onSignedIn?(token: string, profile: Profile): Promise<void>;
  onCredential?(credential: string): Promise<void>;
}) {
  const container = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onSignedIn, onCredential });
  handlers.current = { onSignedIn, onCredential };
  const [state, setState] = useState<'loading' | 'ready' | 'busy'>('loading');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    loadGoogleIdentity()
      .then((gis) => {
        if (cancelled || !container.current) return;
        gis.initialize({
          client_id: clientId,
          ux_mode: 'popup',
          context: mode === 'signup' ? 'signup' : 'signin',
          callback: async ({ credential }) => {
            if (!credential) {
              setError('Google sign-in failed');
              return;
            }
            setError(null);
            setState('busy');
            try {
              const { onSignedIn: signedIn, onCredential: confirm } = handlers.current;
              if (confirm) {
                await confirm(credential);
              } else {
                const { token, profile } = await googleSignIn(credential);
                await signedIn?.(token, profile);
              }
            } catch (e) {
              setError(errorMessage(e, 'Google login failed'));
              setState('ready');
            }
          },
        });
        container.current.replaceChildren();
        gis.renderButton(container.current, {
          type: 'standard',
          theme: theme === 'dark' ? 'filled_black' : 'outline',
          size: 'large',
          text: mode === 'signup' ? 'signup_with' : 'signin_with',
          shape: 'rectangular',
          width: container.current.clientWidth || 320,
        });
        setState('ready');
      })
      .catch((e: unknown) => {
        console.error('Failed to initialize Google sign-in', e);
        if (!cancelled) setError('Failed to initialize Google sign-in');
      });
    return () => {
      cancelled = true;
    };
  }, [clientId, mode, theme]);

  return (
    <div className="google-signin">
      <div ref={container} className="google-signin-button" hidden={state === 'busy'} />
      {state === 'loading' && !error && <div className="google-signin-placeholder"><Spinner size={14} /></div>}
      {state === 'busy' && <div className="google-signin-placeholder"><Spinner size={14} /> Signing in with Google…</div>}
      {error && <FormMessage tone="error">{error}</FormMessage>}
    </div>
  );
}
