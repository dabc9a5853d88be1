import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';


// ---- Server layers (docs/architecture.md, "Layers") ----
// routes/ (HTTP) → services/ → repositories/ (the only SQL) → db/. The device path, ingest, the
// live side, the share host and jobs use services and repositories, never routes/.
const SERVER = 'apps/server/src';
const SERVER_FOLDERS = ['routes', 'services', 'repositories', 'db', 'devices', 'ingest', 'live', 'share', 'jobs', 'sandbox', 'plugins', 'blobs', 'lib'];
/** What each folder may not import (besides `routes/`, which only app.ts and routes/ may). */
const SERVER_FORBIDDEN = {
  routes: [],
  services: ['devices', 'ingest', 'share', 'jobs'],
  repositories: ['services', 'devices', 'ingest', 'live', 'share', 'jobs', 'sandbox', 'plugins'],
  db: ['services', 'repositories', 'devices', 'ingest', 'live', 'share', 'jobs', 'sandbox', 'plugins', 'blobs'],
  devices: ['share', 'jobs'],
  ingest: ['devices', 'share', 'jobs'],
  live: ['devices', 'ingest', 'share', 'jobs'],
  share: ['devices', 'ingest', 'jobs'],
  jobs: ['devices', 'ingest', 'share'],
  sandbox: ['services', 'repositories', 'devices', 'ingest', 'live', 'share', 'jobs'],
  plugins: ['devices', 'ingest', 'share', 'jobs'],
  blobs: ['services', 'repositories', 'devices', 'ingest', 'live', 'share', 'jobs', 'sandbox', 'plugins', 'db'],
  lib: SERVER_FOLDERS.filter((f) => f !== 'lib'),
};
const folderImport = (folder) => [`**/${folder}/*`, `../${folder}`, `./${folder}`];
/** Kysely's query builder outside repositories/ and db/: SQL belongs in a repository. */
const QUERY_BUILDING = {
  selector: "CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom)$/]",
  message: 'Queries are built only in apps/server/src/repositories/ (or db/): add a repository function.',
};
const KYSELY_VALUES = {
  name: 'kysely',
  allowTypeImports: true,
  message: 'SQL (kysely values such as `sql`) belongs in apps/server/src/repositories/ or db/.',
};
const serverLayers = SERVER_FOLDERS.map((folder) => {
  const forbidden = [...new Set([...(folder === 'routes' ? [] : ['routes']), ...SERVER_FORBIDDEN[folder]])];
  const sqlAllowed = folder === 'repositories' || folder === 'db';
  return {
    files: [`${SERVER}/${folder}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        ...(sqlAllowed ? {} : { paths: [KYSELY_VALUES] }),
        patterns: forbidden.map((f) => ({
          group: folderImport(f),
          message: `${SERVER}/${folder}/ may not import ${f}/ (dependencies run routes → services → repositories → db; see docs/architecture.md).`,
        })),
      }],
      ...(sqlAllowed ? {} : { 'no-restricted-syntax': ['error', QUERY_BUILDING] }),
    },
  };
});
/** Files at the top of apps/server/src (context, config, errors, main): no SQL, no routes but in app.ts. */
const serverTop = {
  files: [`${SERVER}/*.ts`],
  ignores: [`${SERVER}/app.ts`, '**/*.test.ts'],
  rules: {
    '@typescript-eslint/no-restricted-imports': ['error', {
      paths: [KYSELY_VALUES],
      patterns: [{ group: folderImport('routes'), message: 'Only app.ts registers routes/.' }],
    }],
    'no-restricted-syntax': ['error', QUERY_BUILDING],
  },
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'bench/results/**', 'e2e/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/test/**', '**/*.test.ts', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  ...serverLayers,
  serverTop,
  ...webLayers(),
);

// ---- web client layers (issue 11) ---------------------------------------------------------------
// app/ → features/ → lib/, ui/: lower layers never import higher ones, and the request list
// (features/requests) and mocking (features/mocks) never import each other: the device dashboard
// composes them and hands the mock controls in (features/requests/inspector/item-mocking.ts).
// Imports are matched as written: a relative path with the forbidden folder among its segments
// (packages are not matched). Each web file falls in exactly one block below, since a later
// `no-restricted-imports` replaces an earlier one for the same file. The rule is shown to bite by
// apps/web/src/features/feature-boundaries.test.ts.
function webLayers() {
  const web = 'apps/web/src';
  const folder = (name, message) => ({ regex: `^\\.{1,2}/(.*/)?${name}(/|$)`, message });
  const app = folder('app', 'Only app/ composes the screens: features, lib and ui do not import it.');
  const features = folder('features', 'lib/ and ui/ lie below the features and do not import them.');
  const mocks = folder('mocks', 'The request list does not import the mocks feature: the dashboard hands the mock controls in (ItemMocking).');
  const requests = folder('requests', 'The mocks feature does not import the request list: the dashboard composes the two.');
  const block = (files, patterns, ignores = []) => ({ files, ignores, rules: { 'no-restricted-imports': ['error', { patterns }] } });
  return [
    block([`${web}/features/requests/**`], [app, mocks]),
    block([`${web}/features/mocks/**`], [app, requests]),
    block([`${web}/features/**`], [app], [`${web}/features/requests/**`, `${web}/features/mocks/**`]),
    block([`${web}/lib/**`, `${web}/ui/**`], [app, features]),
  ];
}
// ---- end of web client layers ----------------------------------------------------------------
