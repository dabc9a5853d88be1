/**
 * Issue 13, size: what the SDK adds to an app's bundle. The browser entry (capture of fetch and
 * XMLHttpRequest, outbox, connection, commands, mock matching) bundled as an app's bundler would,
 * minified and gzipped; QuickJS and the sandbox are a lazy chunk loaded only by a dynamic mocked
 * route, so they are reported apart. The baseline, in the same run: the protocol's `DeviceItem`
 * zod schema alone, bundled the same way — what validating every item shape on the device costs
 * before any SDK code.
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { result, type BenchResult } from '../lib';

const source = (file: string) => fileURLToPath(new URL(`../../packages/${file}`, import.meta.url));

/** Minified + gzipped bytes of each output file of a browser bundle of `entry`, in KB. */
async function bundleKb(entry: string, options: BuildOptions = {}): Promise<{ entryKb: number; lazyKb: number }> {
  const out = await build({
    entryPoints: [entry], bundle: true, write: false, minify: true, format: 'esm', platform: 'browser', target: 'es2022',
    splitting: true, outdir: '/out', logLevel: 'silent', ...options,
  });
  let entryKb = 0;
  let lazyKb = 0;
  for (const file of out.outputFiles ?? []) {
    const kb = gzipSync(file.contents, { level: 9 }).length / 1024;
    if (file.path.endsWith('/browser.js') || file.path.endsWith('/react-native.js') || file.path.endsWith('/schema.js')) entryKb += kb;
    else lazyKb += kb;
  }
  return { entryKb, lazyKb };
}

export default async function sdkSize(): Promise<BenchResult[]> {
  const quickjs = ['quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync'];
  const browser = await bundleKb(source('sdk/src/browser.ts'), { external: quickjs });
  const reactNative = await bundleKb(source('sdk/src/react-native.ts'));
  const schema = await bundleKb('schema.ts', {
    stdin: { contents: `export { DeviceItem } from ${JSON.stringify(source('protocol/src/device-protocol.ts'))};`, loader: 'ts', sourcefile: 'schema.ts', resolveDir: source('protocol') },
    entryPoints: undefined, outdir: '/out', entryNames: 'schema',
  });
  const kb = (n: number) => Math.round(n * 10) / 10;
  return [
    result({
      name: 'SDK browser core (minified + gzip)', value: kb(browser.entryKb), unit: 'KB', baseline: 'DeviceItem zod schema alone', baselineValue: kb(schema.entryKb), goal: '≤30 KB',
      notes: `capture, outbox, connection, commands, mock matching; the lazy sandbox chunk (QuickJS excluded) adds ${kb(browser.lazyKb)} KB when a dynamic route arrives`,
    }),
    result({ name: 'SDK React Native build (minified + gzip)', value: kb(reactNative.entryKb), unit: 'KB', baseline: 'DeviceItem zod schema alone', baselineValue: kb(schema.entryKb), goal: '≤30 KB', notes: 'no sandbox: Hermes has no WebAssembly' }),
  ];
}
