import { Check, Copy } from 'lucide-react';
import { COPY_INDICATOR_MS } from '@spyglass/protocol';
import { useEffect, useRef, useState } from 'react';
import { Button } from './button';

/** Copies `text`; the button says Copied! for 2 s (spec 000 §9 copy-key indicator). */
export function CopyButton({ text, label = 'Copy', onCopied, size = 'md' }: {
  text: string;
  label?: string;
  onCopied?(): void;
  size?: 'sm' | 'md';
}) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch (error) {
      console.error('Copying to the clipboard failed', error);
      return;
    }
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), COPY_INDICATOR_MS);
    onCopied?.();
  };

  return (
    <Button
      size={size}
      icon={copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
      onClick={() => void copy()}
      aria-label={copied ? 'Copied!' : label}
    >
      {copied ? 'Copied!' : 'Copy'}
    </Button>
  );
}
