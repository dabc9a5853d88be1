import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../apps/server/test/support/server-process';

export interface Backend {
  /** The server's name in HAProxy's config and log, e.g. "a". */
  name: string;
  port: number;
}

/** One request as HAProxy logged it: which server got it. */
export interface RoutedRequest {
  server: string;
  method: string;
  path: string;
}

export interface LoadBalancer {
  /** e.g. http://127.0.0.1:41236: what devices and browsers connect to. */
  url: string;
  /** The generated haproxy.cfg, for failure messages and docs. */
  config: string;
  /** Every request so far, in the order HAProxy answered (logged as soon as the server answered). */
  routed(): RoutedRequest[];
  output(): string;
  stop(): Promise<void>;
}

const HAPROXY = '/usr/sbin/haproxy';

/**
 * The HAProxy configuration the tests run: round robin over the nodes, no stickiness, health checks
 * on /healthz every 300 ms (a killed node is out within a second), a failed connection retried on
 * the other node, and websockets passed through as tunnels. docs/scaling.md shows the same
 * configuration for production, without the test-only lines marked below.
 */
export function haproxyConfig(port: number, backends: Backend[]): string {
  return `global
  log stdout format raw local0
  maxconn 4096

defaults
  mode http
  log global
  option httplog
  # One log line as soon as the server answered (websockets: at the 101), not when the connection ends.
  option logasap
  option forwardfor
  option redispatch
  retries 3
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h

frontend spyglass
  bind 127.0.0.1:${port}
  # Test only: "x-spyglass-node: b", or a path starting /node-b/ (which is removed), asks for one node,
  # so that a test can put a device and a browser on different nodes. A node that is down is skipped.
  http-request set-var(txn.node) req.hdr(x-spyglass-node)
  http-request set-var(txn.node) path,field(2,/),regsub(^node-,) if { path_reg ^/node-[a-z]+/ }
  http-request replace-path ^/node-[a-z]+(/.*) \\1
  default_backend nodes

backend nodes
  balance roundrobin
  option httpchk GET /healthz
${backends.map((b) => `  use-server ${b.name} if { var(txn.node) -m str ${b.name} }`).join('\n')}
${backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check inter 300ms fall 1 rise 2`).join('\n')}
`;
}

/** Where a test installs nothing: CI installs Debian's haproxy in .ci/run. */
export function haproxyAvailable(): boolean {
  return fs.existsSync(HAPROXY);
}

/** HAProxy from Debian's package, in the foreground on a free loopback port, in front of `backends`. */
export async function startLoadBalancer(backends: Backend[]): Promise<LoadBalancer> {
  if (!haproxyAvailable()) throw new Error(`${HAPROXY} is missing: apt-get install -y haproxy (.ci/run does)`);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-lb-'));
  const config = haproxyConfig(port, backends);
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, config);
  // -db: stay in the foreground and log to stdout; -W: master-worker, so that SIGTERM stops it cleanly.
  const child = spawn(HAPROXY, ['-db', '-W', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  // Ready once it answers through a healthy node.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
    const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`haproxy did not answer within 15 s:\n${output}\n${config}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    config,
    output: () => output,
    routed: () => [...output.matchAll(/ nodes\/(\S+) .*?"(\S+) (\S+) HTTP/g)].map((m) => ({ server: m[1]!, method: m[2]!, path: m[3]! })),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
