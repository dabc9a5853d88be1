import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, foldGutter, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useRef, useState } from 'react';
import { EditorLoading, type CodeEditorProps } from './code-editor';
import { loadLanguage } from './editor-languages';

/** Colours come from the theme tokens, so one editor set-up serves the light and the dark theme. */
const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '12px', backgroundColor: 'var(--surface-sunken)', color: 'var(--text)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.55' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '.cm-gutters': { backgroundColor: 'var(--surface-sunken)', color: 'var(--text-faint)', border: 'none' },
  '.cm-activeLine': { backgroundColor: 'var(--hover)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--hover)', color: 'var(--text-muted)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--accent-soft) !important' },
  '.cm-matchingBracket': { backgroundColor: 'var(--accent-soft)', outline: '1px solid var(--accent)' },
  '.cm-placeholder': { color: 'var(--text-faint)' },
});

const highlight = HighlightStyle.define([
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--syntax-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--syntax-number)' },
  { tag: [tags.keyword, tags.operatorKeyword, tags.controlKeyword, tags.definitionKeyword], color: 'var(--syntax-keyword)' },
  { tag: [tags.propertyName, tags.attributeName], color: 'var(--syntax-property)' },
  { tag: [tags.tagName, tags.typeName, tags.className], color: 'var(--syntax-tag)' },
  { tag: [tags.comment, tags.meta], color: 'var(--text-faint)', fontStyle: 'italic' },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: 'var(--syntax-function)' },
  { tag: tags.heading, fontWeight: '600' },
  { tag: tags.invalid, color: 'var(--danger-text)' },
]);

/** The lazily loaded part of `CodeEditor` (code-editor.tsx): one EditorView per mounted editor. */
export default function CodeEditorView({ value, onChange, onBlur, language, height, label, readOnly = false }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const languageSlot = useRef(new Compartment());
  const [loaded, setLoaded] = useState<Extension | null>(null);
  // The latest callbacks, read by the listeners set up once with the view.
  const callbacks = useRef({ onChange, onBlur });
  callbacks.current = { onChange, onBlur };

  useEffect(() => {
    let cancelled = false;
    loadLanguage(language).then(
      (extension) => { if (!cancelled) setLoaded(extension); },
      (error: unknown) => console.warn(`The ${language} editor support failed to load`, error),
    );
    return () => { cancelled = true; };
  }, [language]);

  const ready = loaded !== null;
  useEffect(() => {
    if (!ready || !host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(), highlightActiveLineGutter(), foldGutter(), history(), drawSelection(), indentOnInput(),
          bracketMatching(), highlightActiveLine(), syntaxHighlighting(highlight), theme,
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          placeholder(readOnly ? '' : 'Empty'),
          languageSlot.current.of(loaded),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
          EditorView.domEventHandlers({
            blur: (_event, v) => { callbacks.current.onBlur?.(v.state.doc.toString()); },
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The view is made once per mount; value and language changes are applied to it below.
  }, [ready, readOnly, label]);

  useEffect(() => {
    if (view.current && loaded) view.current.dispatch({ effects: languageSlot.current.reconfigure(loaded) });
  }, [loaded]);

  // A value set from outside (Prettify, Revert, a watched file, another route selected).
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current !== value) editor.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  if (!ready) return <EditorLoading height={height} />;
  return <div ref={host} className="code-editor" style={{ height }} />;
}
