import * as RadixDialog from '@radix-ui/react-dialog';
import { Maximize2, Sparkles, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button, IconButton } from '../../../ui/button';
import { CodeEditor } from './code-editor';
import { languageForContentType, type EditorLanguage } from './editor-languages';
import { prettify, prettifyFormat } from './prettify';

export interface BodyEditorProps {
  label: string;
  value: string;
  onChange(value: string): void;
  onBlur?(value: string): void;
  /** The body's Content-Type: it picks the editor's language and how Prettify formats. */
  contentType: string | null;
  /** Overrides the language taken from the Content-Type (the code editor is JavaScript). */
  language?: EditorLanguage;
  height: string;
  /** Spec 002 §9: a fullscreen editor 80vh high. */
  fullscreen?: boolean;
  /** Prettify is offered for bodies, not for code. */
  prettifiable?: boolean;
  /** Called with a Prettify failure (an unparsable body); by default it is only logged. */
  onPrettifyError?(message: string): void;
  actions?: ReactNode;
}

/** A body (or code) editor with its toolbar: Prettify, fullscreen and the caller's actions. */
export function BodyEditor(props: BodyEditorProps) {
  const { label, value, onChange, onBlur, contentType, height, fullscreen = false, prettifiable = true, onPrettifyError, actions } = props;
  const language = props.language ?? languageForContentType(contentType);
  const [open, setOpen] = useState(false);
  const format = prettifyFormat(value, contentType);

  async function runPrettify() {
    if (!format) return;
    try {
      const pretty = await prettify(value, format);
      if (pretty !== value) {
        onChange(pretty);
        onBlur?.(pretty);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.warn(`Prettify: the body is not valid ${format.toUpperCase()}`, message);
      onPrettifyError?.(message);
    }
  }

  const toolbar = (inDialog: boolean) => (
    <div className="body-editor-toolbar">
      <span className="body-editor-language">{language === 'text' ? 'Text' : language.toUpperCase()}</span>
      <span className="body-editor-actions">
        {actions}
        {prettifiable && (
          <Button size="sm" variant="ghost" icon={<Sparkles size={14} aria-hidden="true" />} disabled={!format || value.trim() === ''} onClick={() => void runPrettify()}>
            Prettify
          </Button>
        )}
        {fullscreen && !inDialog && (
          <IconButton label="Fullscreen" onClick={() => setOpen(true)}>
            <Maximize2 size={14} aria-hidden="true" />
          </IconButton>
        )}
      </span>
    </div>
  );

  return (
    <div className="body-editor">
      {toolbar(false)}
      {!open && <CodeEditor label={label} value={value} onChange={onChange} onBlur={onBlur} language={language} height={height} />}
      {fullscreen && (
        <RadixDialog.Root open={open} onOpenChange={setOpen}>
          <RadixDialog.Portal>
            <RadixDialog.Overlay className="dialog-overlay" />
            <RadixDialog.Content className="dialog body-editor-fullscreen" aria-describedby={undefined}>
              <div className="dialog-header">
                <RadixDialog.Title className="dialog-title">{label}</RadixDialog.Title>
                <RadixDialog.Close className="icon-btn dialog-close" aria-label="Close"><X size={16} aria-hidden="true" /></RadixDialog.Close>
              </div>
              {toolbar(true)}
              <CodeEditor label={label} value={value} onChange={onChange} onBlur={onBlur} language={language} height="80vh" />
            </RadixDialog.Content>
          </RadixDialog.Portal>
        </RadixDialog.Root>
      )}
    </div>
  );
}
