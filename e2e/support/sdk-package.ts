import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER } from '@spyglass/protocol';
import { REPO_ROOT } from './paths';

const run = promisify(execFile);
const SDK_DIR = path.join(REPO_ROOT, 'packages/sdk');

/** What the packed SDK is made of: a change to any of these packs it again. */
const SOURCES = ['packages/sdk/src', 'packages/sdk/scripts', 'packages/sdk/package.json', 'packages/sdk/tsconfig.build.json', 'packages/sdk/README.md', 'packages/sdk/CHANGELOG.md', 'packages/protocol/src', 'tsconfig.json'];

/**
 * The SDK as `npm pack` makes it (its `prepack` builds dist/), packed once per content of its
 * sources: the tarball is kept in the system's temporary directory under a hash of them, so test
 * files and runs share it.
 */
export async function packSdk(): Promise<string> {
  const hash = createHash('sha256');
  for (const source of SOURCES) {
    for (const file of filesUnder(path.join(REPO_ROOT, source))) hash.update(file).update(fs.readFileSync(file));
  }
  const tarball = path.join(os.tmpdir(), `spyglass-sdk-${hash.digest('hex').slice(0, 16)}.tgz`);
  if (fs.existsSync(tarball)) return tarball;
  const destination = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-pack-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], { cwd: SDK_DIR, maxBuffer: 16 * 1024 * 1024 });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  // Two test files packing at once: the rename makes either one's tarball the cached one, whole.
  fs.renameSync(path.join(destination, filename), tarball);
  fs.rmSync(destination, { recursive: true, force: true });
  return tarball;
}

/** The files in the tarball and its package.json, as `npm` would install them. */
export async function tarballContents(tarball: string): Promise<{ files: string[]; manifest: Record<string, unknown> }> {
  const { stdout } = await run('tar', ['-tzf', tarball]);
  const files = stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
  const { stdout: json } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
  return { files, manifest: JSON.parse(json) as Record<string, unknown> };
}

/**
 * A new app outside the repository (in the system's temporary directory, so nothing of the
 * repository's node_modules is on its resolution path) with the packed SDK installed from the
 * tarball by npm, plus `dependencies` from the registry (npm's cache serves repeated runs).
 */
export async function appWithSdk(tarball: string, files: Record<string, string>, dependencies: Record<string, string> = {}): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-app-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'shop-app', version: '1.0.0', private: true, dependencies: { '@spyglass/sdk': `file:${tarball}`, ...dependencies } }, null, 2));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  return dir;
}

/** Runs `node file` in `dir` (plain Node: no loader, no TypeScript) and answers its output. */
export async function runNode(dir: string, file: string, env: Record<string, string>): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: 60_000 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`node ${file} failed: ${(error as Error).message}\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

/** The repository's TypeScript compiler on a project of the app (its types come from the app's node_modules). */
export async function typecheck(dir: string, project: string): Promise<void> {
  const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
  try {
    await run(process.execPath, [tsc, '-p', project], { cwd: dir });
  } catch (error) {
    throw new Error(`tsc -p ${project} failed:\n${(error as { stdout?: string }).stdout ?? ''}`, { cause: error });
  }
}

/** An authenticated call of the dashboard's API; answers its JSON. */
export async function callApi<T>(serverUrl: string, token: string, method: 'GET' | 'POST', pathname: string, body?: unknown): Promise<T> {
  const res = await fetch(`${serverUrl}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${token}`, [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

function filesUnder(target: string): string[] {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return [target];
  return fs.readdirSync(target).sort().flatMap((name) => filesUnder(path.join(target, name)));
}
