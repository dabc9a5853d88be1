#!/usr/bin/env node
// `npm start`: build the web client when it is missing or older than its sources, then serve
// everything (page, /v1, /ws) with the embedded defaults.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_V8_FLAGS } from './server-v8-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sources = ['apps/web/src', 'packages/protocol/src'].map((d) => newestMtime(path.join(root, d)));
const stale = !fs.existsSync(dist) || fs.statSync(dist).mtimeMs < Math.max(...sources);
if (stale) {
  console.log('Building the web client...');
  const r = spawnSync('npm', ['run', 'build', '-w', '@spyglass/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const server = spawn(process.execPath, [...SERVER_V8_FLAGS, '--import', 'tsx', 'apps/server/src/main.ts'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
