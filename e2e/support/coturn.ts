import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import os from 'node:os';
import path from 'node:path';

export interface Coturn {
  /** e.g. `turn:127.0.0.1:41234?transport=udp` */
  url: string;
  secret: string;
  /** What the server printed, for the message of a failing test. */
  output(): string;
  stop(): Promise<void>;
}

const TURNSERVER = '/usr/bin/turnserver';

/** A free UDP port on the loopback (coturn listens on UDP and TCP alike; only UDP is used here). */
async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/**
 * Debian's coturn (`apt-get install coturn`, see .ci/run) on the loopback with the TURN REST
 * shared secret (`use-auth-secret`), as a deployment would run it beside Spyglass: the server
 * hands out credentials derived from the same secret (TURN_SECRET). Relays stay on 127.0.0.1.
 */
export async function startCoturn(again?: Pick<Coturn, 'url' | 'secret'>): Promise<Coturn> {
  // `again`: the same relay back after a stop (a network path restored), on its port with its secret.
  const port = again ? Number(new URL(again.url.replace(/^turn:/, 'turn://')).port) : await freeUdpPort();
  const secret = again?.secret ?? crypto.randomBytes(16).toString('hex');
  let output = '';
  const child: ChildProcess = spawn(TURNSERVER, [
    '-n', '--listening-ip=127.0.0.1', `--listening-port=${port}`, '--relay-ip=127.0.0.1', '--allow-loopback-peers',
    '--use-auth-secret', `--static-auth-secret=${secret}`, '--realm=spyglass.test', '--fingerprint',
    '--no-tls', '--no-dtls', '--no-cli', '--no-multicast-peers', '--min-port=49160', '--max-port=49260', '--log-file=stdout', '--simple-log',
    `--pidfile=${path.join(os.tmpdir(), `spyglass-coturn-${port}.pid`)}`, `--db=${path.join(os.tmpdir(), `spyglass-coturn-${port}.db`)}`,
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`coturn did not start:\n${output}`)), 15_000);
    const check = () => {
      // Printed once its relay threads and listeners are up.
      if (/Total General servers/.test(output)) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`coturn exited (${code}):\n${output}`));
    });
  });
  return {
    url: `turn:127.0.0.1:${port}?transport=udp`,
    secret,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
