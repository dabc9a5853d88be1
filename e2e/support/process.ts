import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from './paths';

export interface ChildOptions {
  /** Shown in diagnostics, e.g. "server" or "simulator". */
  name: string;
  args: string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** A child process whose output is kept, so that a failing test can show what the process said. */
export interface Child {
  readonly process: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves when the process has exited (at once if it already has). */
  exited(): Promise<number | null>;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const MAX_OUTPUT_CHARS = 200_000;

/** Starts `node <args>` from the repository root with TypeScript sources loaded through tsx. */
export function spawnNode(options: ChildOptions): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', ...options.args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > MAX_OUTPUT_CHARS) output = output.slice(-MAX_OUTPUT_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const exit = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

  return {
    process: child,
    output: () => output,
    exited: () => exit,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
}
