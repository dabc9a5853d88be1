import { Circle, Download, Square } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useDocumentTitle } from '../../lib/document-title';
import { RECORDER_TIMESLICE_MS } from './studio-capture';
import { RECORD_DEMO } from './studio-settings';
import './record-demo.css';

type State =
  | { kind: 'idle' }
  | { kind: 'recording'; recorder: MediaRecorder; bytes: number }
  | { kind: 'done'; url: string; name: string; size: number }
  | { kind: 'error'; message: string };

/**
 * /record-demo for signed-out visitors (spec 000 §2.1, §9): records a window the visitor picks
 * (getDisplayMedia) at 60 fps in VP9 at 20 Mbps, and saves it as a WebM file. Nothing leaves the
 * browser.
 */
export function RecordDemoPage() {
  useDocumentTitle('Record a demo');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const url = useRef<string | null>(null);
  useEffect(() => () => {
    if (url.current) URL.revokeObjectURL(url.current);
  }, []);

  async function start() {
    try {
      const stream = await navigator.mediaDevices.getDisplayMedia({ video: { frameRate: RECORD_DEMO.fps }, audio: false });
      const recorder = new MediaRecorder(stream, { mimeType: RECORD_DEMO.mimeType, videoBitsPerSecond: RECORD_DEMO.bitsPerSecond });
      const chunks: Blob[] = [];
      let bytes = 0;
      recorder.ondataavailable = (event) => {
        if (event.data.size === 0) return;
        chunks.push(event.data);
        bytes += event.data.size;
        setState((s) => (s.kind === 'recording' ? { ...s, bytes } : s));
      };
      recorder.onstop = () => {
        for (const track of stream.getTracks()) track.stop();
        const blob = new Blob(chunks, { type: 'video/webm' });
        if (url.current) URL.revokeObjectURL(url.current);
        url.current = URL.createObjectURL(blob);
        setState({ kind: 'done', url: url.current, name: `demo-recording-${Date.now()}.webm`, size: blob.size });
      };
      // The visitor may end the share from the browser's own bar.
      stream.getVideoTracks()[0]?.addEventListener('ended', () => recorder.state !== 'inactive' && recorder.stop());
      recorder.start(RECORDER_TIMESLICE_MS);
      setState({ kind: 'recording', recorder, bytes: 0 });
    } catch (error) {
      setState({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <main className="record-demo">
      <h1>Record a demo</h1>
      <p>Record a window of your screen at 60 fps (VP9, 20 Mbps) and save it as a video file. Nothing is uploaded.</p>
      {state.kind === 'recording' ? (
        <div className="record-demo-row">
          <button type="button" className="btn btn-danger" onClick={() => state.recorder.stop()}><Square size={14} aria-hidden="true" />Stop recording</button>
          <span role="status" className="record-demo-status"><span className="record-demo-dot" />Recording · {Math.ceil(state.bytes / 1000)} KB</span>
        </div>
      ) : (
        <button type="button" className="btn btn-primary" onClick={() => void start()}><Circle size={14} aria-hidden="true" />Choose a window and record</button>
      )}
      {state.kind === 'error' && <p role="alert" className="record-demo-error">{state.message}</p>}
      {state.kind === 'done' && (
        <section className="record-demo-result" aria-label="Recording">
          <video src={state.url} controls>Your browser does not support the video tag.</video>
          <a className="btn btn-primary" href={state.url} download={state.name}><Download size={14} aria-hidden="true" />Download video ({Math.ceil(state.size / 1000)} KB)</a>
        </section>
      )}
    </main>
  );
}
