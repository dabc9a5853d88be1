/**
 * The browser benchmarks' test pages (bench/pages/*.html): the web app's real components on
 * generated data, built with the app's own Vite configuration and served for a benchmark. They
 * live here, not in apps/web, because only the benchmarks build them.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { REPO_ROOT } from '../e2e/support/paths';

const PAGES = path.join(REPO_ROOT, 'bench/pages');

/** Builds `bench/pages/<entry>` into a temporary directory (the app's own dist is left alone). */
export async function buildWebEntry(entry: string): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), `spyglass-${path.basename(entry, '.html')}-`));
  await build({
    root: PAGES,
    configFile: path.join(REPO_ROOT, 'apps/web/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, sourcemap: false, rollupOptions: { input: path.join(PAGES, entry) } },
  });
  return outDir;
}

export function serveStatic(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const server = http.createServer((req, res) => {
    const file = path.join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  })));
}

/**
 * CPU time (trace `tdur`) of the busiest renderer main thread's tasks: what the page's work costs
 * by itself, apart from the time a loaded machine keeps it waiting for a CPU.
 */
export function mainThreadCpu(trace: Buffer): { totalMs: number; longestMs: number } {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: Array<{ name: string; ph: string; pid: number; tid: number; tdur?: number; args?: { name?: string } }> }).traceEvents;
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const perThread = new Map<string, { total: number; longest: number }>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.name !== 'RunTask' || e.ph !== 'X' || e.tdur === undefined || !mains.has(key)) continue;
    const t = perThread.get(key) ?? { total: 0, longest: 0 };
    t.total += e.tdur / 1000;
    t.longest = Math.max(t.longest, e.tdur / 1000);
    perThread.set(key, t);
  }
  const busiest = [...perThread.values()].sort((a, b) => b.total - a.total)[0] ?? { total: Number.NaN, longest: Number.NaN };
  return { totalMs: busiest.total, longestMs: busiest.longest };
}
