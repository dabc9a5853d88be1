import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The messages `npm run lint` gives for `code` saved as `file` (a path under apps/server/src). */
async function lint(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, 'apps/server/src', file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('server layers (eslint.config.js)', () => {
  it('refuses an import of routes/ from the device path', async () => {
    const messages = await lint('devices/example.ts', "import { requireDevice } from '../routes/route-helpers';\nexport const f = requireDevice;\n");
    expect(messages).toEqual([expect.stringContaining('apps/server/src/devices/ may not import routes/')]);
  });

  it('refuses services/ and the live side from a repository', async () => {
    const messages = await lint('repositories/example.ts', [
      "import { changeEmail } from '../services/account.service';",
      "import { topics } from '../live/bus';",
      'export const f = [changeEmail, topics];',
    ].join('\n'));
    expect(messages).toEqual([
      expect.stringContaining('repositories/ may not import services/'),
      expect.stringContaining('repositories/ may not import live/'),
    ]);
  });

  it('refuses SQL outside repositories/ and db/, but allows Kysely types', async () => {
    const code = [
      "import { sql, type Kysely } from 'kysely';",
      "export const f = (db: Kysely<{ t: { a: number } }>) => [sql`1`, db.selectFrom('t')];",
    ].join('\n');
    const messages = await lint('services/example.ts', code);
    expect(messages).toEqual([
      expect.stringContaining("'kysely' import is restricted"),
      expect.stringContaining('Queries are built only in apps/server/src/repositories/'),
    ]);
    expect(await lint('repositories/example.ts', code)).toEqual([]);
    expect(await lint('services/example.ts', "import type { Kysely } from 'kysely';\nexport type T = Kysely<never>;\n")).toEqual([]);
  });

  it('lets routes use services and repositories', async () => {
    const code = [
      "import { listTours } from '../../services/welcome-tour.service';",
      "import { findDevice } from '../../repositories/devices.repository';",
      'export const f = [listTours, findDevice];',
    ].join('\n');
    expect(await lint('routes/user/example.ts', code)).toEqual([]);
  });
});
