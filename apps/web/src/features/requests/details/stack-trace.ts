/** The stack trace of a log item, as raw text or as table rows (spec 001 'Details panel'). */
import type { StackFrame } from '@spyglass/protocol';

export interface StackTraceRow {
  className: string;
  methodName: string;
  fileName: string;
  line: string;
  native: 'Yes' | 'No';
}

export function stackTraceRows(frames: readonly StackFrame[]): StackTraceRow[] {
  return frames.map((frame) => ({
    className: frame.className ?? '',
    methodName: frame.methodName ?? '',
    fileName: frame.fileName ?? '',
    line: frame.lineNumber === undefined ? '' : String(frame.lineNumber),
    native: frame.isNativeMethod ? 'Yes' : 'No',
  }));
}

/**
 * One `at` line per frame, the way JVM and JavaScript traces read:
 * `at com.acme.Checkout.submit(Checkout.kt:42)`, `at parse (Native Method)`, `at <anonymous>`.
 */
export function stackTraceText(frames: readonly StackFrame[]): string {
  return frames.map((frame) => {
    const name = [frame.className, frame.methodName].filter(Boolean).join('.') || '<anonymous>';
    const location = frame.isNativeMethod
      ? 'Native Method'
      : frame.fileName
        ? frame.lineNumber === undefined ? frame.fileName : `${frame.fileName}:${frame.lineNumber}`
        : '';
    return location ? `at ${name} (${location})` : `at ${name}`;
  }).join('\n');
}
