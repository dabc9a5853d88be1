import { lazy, Suspense } from 'react';
import type { EditorLanguage } from './editor-languages';

export interface CodeEditorProps {
  value: string;
  onChange(value: string): void;
  /** When the editor loses focus (the body's live update is sent then, spec 002 §4). */
  onBlur?(value: string): void;
  language: EditorLanguage;
  /** CSS height: 300px for a body, 180px for code, 80vh in fullscreen (spec 002 §9). */
  height: string;
  /** Accessible name of the editing area. */
  label: string;
  readOnly?: boolean;
}

const CodeEditorView = lazy(() => import('./code-editor-view'));

/**
 * A CodeMirror 6 editor. CodeMirror and each language are separate chunks fetched when the first
 * editor is shown; until then (and for good when loading fails, spec 002 §8) it reads 'Loading...'.
 */
export function CodeEditor(props: CodeEditorProps) {
  return (
    <Suspense fallback={<EditorLoading height={props.height} />}>
      <CodeEditorView {...props} />
    </Suspense>
  );
}

export function EditorLoading({ height }: { height: string }) {
  return <div className="code-editor code-editor-loading" style={{ height }}>Loading...</div>;
}
