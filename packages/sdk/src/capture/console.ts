import type { LogLevel, LogOptions } from '../items';
import { parseStack } from '../items';

const METHODS = { debug: 'debug', log: 'info', info: 'info', warn: 'warning', error: 'error', trace: 'debug' } as const satisfies Record<string, LogLevel>;
type ConsoleMethod = keyof typeof METHODS;

/**
 * Mirrors console output as log items; the console itself still prints as before. Answers the undo.
 * `report` must not write to the console itself, or it would see its own output.
 */
export function installConsoleCapture(report: (message: string, options: LogOptions) => void): () => void {
  const originals = new Map<ConsoleMethod, (...args: unknown[]) => void>();
  let reporting = false;
  for (const method of Object.keys(METHODS) as ConsoleMethod[]) {
    const original = console[method] as (...args: unknown[]) => void;
    originals.set(method, original);
    console[method] = (...args: unknown[]) => {
      original.apply(console, args);
      if (reporting) return;
      reporting = true;
      try {
        const level = METHODS[method];
        const error = args.find((a): a is Error => a instanceof Error);
        const stack = error ? parseStack(error.stack) : method === 'trace' || level === 'error' ? callerStack() : undefined;
        report(formatConsoleArgs(args), { level, category: 'console', ...(stack?.length ? { stackTrace: stack } : {}) });
      } finally {
        reporting = false;
      }
    };
  }
  return () => {
    for (const [method, original] of originals) console[method] = original;
  };
}

/** The caller's frames, without this module's own. */
function callerStack() {
  return parseStack(new Error().stack).slice(2);
}

/** Like the console prints it: `%s %d %i %f %o %O %j` placeholders, then the rest space-separated. */
export function formatConsoleArgs(args: readonly unknown[]): string {
  const rest = [...args];
  let out = '';
  if (typeof rest[0] === 'string' && rest.length > 1 && /%[sdifoOj%]/.test(rest[0])) {
    const template = rest.shift() as string;
    out = template.replace(/%([sdifoOj%])/g, (match, spec: string) => {
      if (spec === '%') return '%';
      if (rest.length === 0) return match;
      const value = rest.shift();
      if (spec === 'd' || spec === 'i') return String(spec === 'i' ? Math.trunc(Number(value)) : Number(value));
      if (spec === 'f') return String(Number(value));
      if (spec === 's') return typeof value === 'string' ? value : formatValue(value);
      return formatValue(value);
    });
    if (rest.length) out += ' ';
  }
  return out + rest.map((a) => (typeof a === 'string' ? a : formatValue(a))).join(' ');
}

export function formatValue(value: unknown): string {
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || typeof value === 'function' || value === undefined) return String(value);
  try {
    const seen = new WeakSet<object>();
    return JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'bigint') return `${v}n`;
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[Circular]';
        seen.add(v);
      }
      return v;
    }) ?? String(value);
  } catch {
    return String(value);
  }
}
