import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The web layers of eslint.config.js ('web client layers') bite: a file placed in a feature that
 * imports what it must not fails `npm run lint`. Each case lints an in-memory file as if it were
 * at `path`, with the repository's own configuration.
 */
const root = decodeURIComponent(new URL('../../../../', import.meta.url).pathname);
const eslint = new ESLint({ cwd: root });

async function restrictedImports(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${source}';\nexport const y = x;\n`, { filePath: `${root}apps/web/src/${path}` });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('web feature boundaries (eslint.config.js)', () => {
  it('refuses the request list importing the mocks feature', async () => {
    expect(await restrictedImports('features/requests/table/probe.tsx', '../../mocks/intercepted-flash')).toEqual([
      expect.stringContaining('The request list does not import the mocks feature'),
    ]);
    expect(await restrictedImports('features/requests/probe.ts', '../mocks/item-mock/item-mock-section')).toHaveLength(1);
  });

  it('refuses the mocks feature importing the request list', async () => {
    expect(await restrictedImports('features/mocks/item-mock/probe.tsx', '../../requests/details/details-panel')).toEqual([
      expect.stringContaining('The mocks feature does not import the request list'),
    ]);
  });

  it('refuses lower layers importing higher ones', async () => {
    expect(await restrictedImports('lib/probe.ts', '../features/devices/devices.api')).toHaveLength(1);
    expect(await restrictedImports('ui/probe.tsx', '../app/shell/app-shell')).toHaveLength(1);
    expect(await restrictedImports('features/sessions/probe.tsx', '../../app/router')).toHaveLength(1);
  });

  it('lets the dashboard compose both, and a feature import its own parts and the layers below', async () => {
    expect(await restrictedImports('features/devices/dashboard/probe.tsx', '../../mocks/intercepted-flash')).toEqual([]);
    expect(await restrictedImports('features/devices/dashboard/probe.tsx', '../../requests/inspector/requests-screen')).toEqual([]);
    expect(await restrictedImports('features/requests/table/probe.tsx', '../store/list-store')).toEqual([]);
    expect(await restrictedImports('features/mocks/routes/probe.tsx', '../mocks.api')).toEqual([]);
    expect(await restrictedImports('features/requests/table/probe.tsx', '../../../lib/live')).toEqual([]);
  });
});
