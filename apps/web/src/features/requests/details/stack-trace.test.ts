import { describe, expect, it } from 'vitest';
import { stackTraceRows, stackTraceText } from './stack-trace';

const frames = [
  { className: 'com.acme.CheckoutService', methodName: 'submitOrder', fileName: 'CheckoutService.kt', lineNumber: 42 },
  { className: 'java.lang.reflect.Method', methodName: 'invoke', isNativeMethod: true },
  { methodName: 'parse', fileName: 'app.js', lineNumber: 7 },
  { fileName: 'bundle.js' },
  {},
];

describe('stackTraceRows', () => {
  it('gives the Class, Method, File, Line and Native columns with blanks for what is missing', () => {
    expect(stackTraceRows(frames)).toEqual([
      { className: 'com.acme.CheckoutService', methodName: 'submitOrder', fileName: 'CheckoutService.kt', line: '42', native: 'No' },
      { className: 'java.lang.reflect.Method', methodName: 'invoke', fileName: '', line: '', native: 'Yes' },
      { className: '', methodName: 'parse', fileName: 'app.js', line: '7', native: 'No' },
      { className: '', methodName: '', fileName: 'bundle.js', line: '', native: 'No' },
      { className: '', methodName: '', fileName: '', line: '', native: 'No' },
    ]);
  });

  it('keeps line 0', () => {
    expect(stackTraceRows([{ lineNumber: 0 }])[0]!.line).toBe('0');
  });
});

describe('stackTraceText', () => {
  it('writes one at-line per frame', () => {
    expect(stackTraceText(frames)).toBe([
      'at com.acme.CheckoutService.submitOrder (CheckoutService.kt:42)',
      'at java.lang.reflect.Method.invoke (Native Method)',
      'at parse (app.js:7)',
      'at <anonymous> (bundle.js)',
      'at <anonymous>',
    ].join('\n'));
  });

  it('is empty for no frames', () => {
    expect(stackTraceText([])).toBe('');
  });
});
