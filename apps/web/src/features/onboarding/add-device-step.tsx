import { QRCodeSVG } from 'qrcode.react';
import { Check } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { Button } from '../../ui/button';
import { CodeSnippets } from '../devices/connect/code-snippets';
import { connectLink, connectSnippets } from '../devices/connect/snippets';
import { StoreLinks } from '../devices/connect/store-links';
import { useNewDeviceConnection } from '../devices/connect/use-new-device';
import { StepFrame } from './step-frame';
import '../devices/devices.css';

/** Spec 000 §2.4: the QR code has size 180 and level M. */
const QR_SIZE = 180;

/** Spec 000 §2.4 add device: the companion app or the SDK; Continue once a new device connected. */
export function AddDeviceStep({ apiKey, callOffer, onNext, onBack }: {
  apiKey: string;
  callOffer: ReactNode;
  onNext: () => void;
  onBack: () => void;
}) {
  const origin = window.location.origin;
  const snippets = useMemo(() => connectSnippets(apiKey, origin), [apiKey, origin]);
  const device = useNewDeviceConnection();

  return (
    <StepFrame
      title="Add your first device"
      description="Connect a phone or an emulator running your app. It shows up here the moment it connects."
      onBack={onBack}
      actions={<Button variant="primary" disabled={device === null} onClick={onNext}>Continue</Button>}
    >
      {callOffer}
      <div className={`onboarding-device-status${device ? ' is-connected' : ''}`} role="status">
        {device ? (
          <><span className="onboarding-device-dot is-connected"><Check size={12} strokeWidth={3} aria-hidden="true" /></span><strong>New device connected!</strong><span>{device.name}</span></>
        ) : (
          <><span className="onboarding-device-dot" aria-hidden="true" /><strong>Waiting for devices to connect...</strong></>
        )}
      </div>
      <div className="onboarding-device-options">
        <section className="connect-card" aria-labelledby="onboarding-option-1">
          <span className="connect-option">Option 1</span>
          <h2 id="onboarding-option-1" className="connect-card-title">Quickstart with the companion</h2>
          <p className="connect-card-text">Scan the code with your phone's camera: the Spyglass companion opens in its browser and connects the phone with your API key.</p>
          <StoreLinks />
          <div className="onboarding-qr">
            <QRCodeSVG value={connectLink(origin, apiKey)} size={QR_SIZE} level="M" marginSize={2} title="QR code with your API key" />
          </div>
        </section>
        <section className="connect-card" aria-labelledby="onboarding-option-2">
          <span className="connect-option">Option 2</span>
          <h2 id="onboarding-option-2" className="connect-card-title">Integrate the SDK</h2>
          <p className="connect-card-text">Start the SDK when your app launches; requests are captured automatically.</p>
          <CodeSnippets snippets={snippets} />
        </section>
      </div>
    </StepFrame>
  );
}
