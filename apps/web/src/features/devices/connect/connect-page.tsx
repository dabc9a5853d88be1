import { QRCodeSVG } from 'qrcode.react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { track } from '../../../lib/analytics';
import { useProfile } from '../../../lib/auth';
import { useDocumentTitle } from '../../../lib/document-title';
import { PageHeader } from '../../../ui/page-header';
import { CodeSnippets } from './code-snippets';
import { Showcase } from '../../onboarding/showcase';
import { ConnectionStatus } from './connection-status';
import { CopyButton } from '../../../ui/copy-button';
import { connectLink, connectSnippets } from './snippets';
import { StoreLinks } from './store-links';
import { useNewDeviceConnection } from './use-new-device';
import '../devices.css';

/** Spec 001 §9: connect-screen QR code, size 180, level M. */
const QR_SIZE = 180;

/** /devices/new: everything a device needs to connect, and the moment it does. */
export function ConnectPage() {
  useDocumentTitle('Add a device');
  const { apiKey } = useProfile();
  const origin = window.location.origin;
  const snippets = useMemo(() => connectSnippets(apiKey, origin), [apiKey, origin]);
  const companionLink = connectLink(origin, apiKey);
  const device = useNewDeviceConnection();

  return (
    <div className="page connect-page">
      <PageHeader title="Add a device" />
      <div className="connect-body">
        <ConnectionStatus device={device} />
        {/* While waiting: what the dashboard shows once the app sends traffic (spec 002 'Sample data'). */}
        {!device && <Showcase label="Your app, once connected" className="connect-showcase" />}

        <section className="connect-card connect-key" aria-labelledby="connect-key-title">
          <div>
            <h2 id="connect-key-title" className="connect-card-title">Your API key</h2>
            <p className="connect-card-text">Devices connect to your account with this key.</p>
          </div>
          <div className="connect-key-row">
            <code className="connect-key-value" aria-label="API Key">{apiKey}</code>
            <CopyButton text={apiKey} label="Copy API key" onCopied={() => track('api_key_copied')} />
          </div>
        </section>

        <div className="connect-options">
          <section className="connect-card connect-qr" aria-labelledby="connect-qr-title">
            <span className="connect-option">Option 1</span>
            <h2 id="connect-qr-title" className="connect-card-title">Quickstart with the companion</h2>
            <p className="connect-card-text">Scan the code with your phone's camera: the Spyglass companion opens in its browser and connects the phone with your API key.</p>
            <StoreLinks />
            <div className="connect-qr-area">
              <div className="connect-qr-code">
                <QRCodeSVG value={companionLink} size={QR_SIZE} level="M" marginSize={2} title="QR code with your API key" />
              </div>
            </div>
            <a className="connect-qr-link" href={companionLink} target="_blank" rel="noreferrer" data-testid="companion-link">Open the companion in this browser</a>
          </section>
          <section className="connect-card connect-sdk" aria-labelledby="connect-sdk-title">
            <span className="connect-option">Option 2</span>
            <h2 id="connect-sdk-title" className="connect-card-title">Add the SDK to your app</h2>
            <p className="connect-card-text">Start the SDK when your app launches. Network requests are captured automatically; logs and events take one call.</p>
            <CodeSnippets snippets={snippets} />
            <Link className="connect-guide-link" to="/docs/sdk" onClick={() => track('view_full_setup_guide')}>View full setup guide</Link>
          </section>
        </div>
        <p className="connect-emulator-hint">No phone at hand? <Link to="/device-emulator">Start a device in the emulator</Link>.</p>
      </div>
    </div>
  );
}

