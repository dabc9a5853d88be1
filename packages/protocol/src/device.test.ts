import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('@spyglass/protocol/device', () => {
  it('reaches no zod schema and no module that defines one', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./device.ts', import.meta.url))],
      bundle: true, write: false, format: 'esm', platform: 'neutral', metafile: true, logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => path.includes('node_modules'))).toEqual([]);
    expect(inputs.some((path) => path.endsWith('protocol/src/items.ts') || path.endsWith('device-protocol.ts'))).toBe(false);
  });
});
