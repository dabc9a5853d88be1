#!/usr/bin/env node
// `npm run dev`: the server with reload (tsx watch) and the Vite dev server with hot reload.
import { spawn } from 'node:child_process';
import { SERVER_V8_FLAGS } from './server-v8-flags.mjs';

const procs = [
  spawn(process.execPath, [...SERVER_V8_FLAGS, '--import', 'tsx', '--watch', 'apps/server/src/main.ts'], {
    stdio: 'inherit', env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' },
  }),
  spawn('npm', ['run', 'dev', '-w', '@spyglass/web'], { stdio: 'inherit' }),
];
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
procs.forEach((p) => p.on('exit', (code) => { stop(); process.exitCode = code ?? 0; }));
