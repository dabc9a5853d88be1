import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumPath } from './browser';
import { REPO_ROOT, WEB_DIST } from './paths';

/** Sources the built client depends on; a newer file than the build means the build is stale. */
const WEB_SOURCES = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/protocol/src'];
const BUILD_LOCK = path.join(os.tmpdir(), `spyglass-web-build-${crypto.createHash('sha1').update(REPO_ROOT).digest('hex').slice(0, 8)}.lock`);
const STALE_LOCK_MS = 5 * 60_000;

/**
 * `npm test` builds the web client before vitest starts. When the e2e project runs alone
 * (`npx vitest run --project e2e`) the build may be missing or older than the sources: build it
 * here once, before any test file starts a server that serves it.
 */
export default function setup(): void {
  chromiumPath();
  if (isBuildFresh()) return;
  // Two runs at once (two terminals, two engineers) must not both write apps/web/dist.
  withLock(() => {
    if (isBuildFresh()) return;
    console.log('[e2e] apps/web/dist is missing or older than its sources: building it');
    execFileSync('npm', ['run', 'build', '-w', '@spyglass/web'], { cwd: REPO_ROOT, stdio: 'inherit' });
  });
}

function isBuildFresh(): boolean {
  const built = path.join(WEB_DIST, 'index.html');
  if (!fs.existsSync(built)) return false;
  return fs.statSync(built).mtimeMs > newestMtime(WEB_SOURCES.map((p) => path.join(REPO_ROOT, p)));
}

function withLock(fn: () => void): void {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      fs.mkdirSync(BUILD_LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (fs.statSync(BUILD_LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) fs.rmSync(BUILD_LOCK, { recursive: true, force: true });
      else Atomics.wait(sleeper, 0, 0, 500);
    }
  }
  try {
    fn();
  } finally {
    fs.rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (p: string) => {
    if (!fs.existsSync(p)) return;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) fs.readdirSync(p).forEach((entry) => visit(path.join(p, entry)));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}
