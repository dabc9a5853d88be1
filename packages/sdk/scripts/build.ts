/**
 * Builds the publishable package into dist/ (README "Libraries and why": esbuild for the code,
 * dts-bundle-generator for the types):
 *
 * - dist/node: ESM (index.js, with the sandbox as a lazy chunk) and CommonJS (index.cjs);
 * - dist/browser: ESM, no Node module reachable, the sandbox a lazy chunk;
 * - dist/react-native: ESM, neither Node modules nor the WebAssembly sandbox;
 * - dist/index.d.ts and index.d.cts: the public types, the protocol's shapes written out as
 *   plain types (no zod in an app's type graph).
 *
 * The protocol package's code the SDK uses is bundled in; `ws` and QuickJS stay dependencies,
 * so that the app's bundler finds QuickJS's `.wasm` beside its own module.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';
import { build, type BuildOptions } from 'esbuild';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'dist');
const QUICKJS = ['quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync'];
const EXTERNAL = ['ws', ...QUICKJS, 'node:*'];

fs.rmSync(dist, { recursive: true, force: true });

const common: BuildOptions = { bundle: true, sourcemap: true, logLevel: 'warning', absWorkingDir: root, legalComments: 'none' };
await Promise.all([
  build({ ...common, entryPoints: { index: 'src/node.ts' }, outdir: 'dist/node', format: 'esm', platform: 'node', target: 'node20', splitting: true, external: EXTERNAL }),
  build({ ...common, entryPoints: { index: 'src/node.ts' }, outfile: 'dist/node/index.cjs', format: 'cjs', platform: 'node', target: 'node20', external: EXTERNAL }),
  // Nothing of Node is external here: reaching a Node module from these entries fails the build.
  build({ ...common, entryPoints: { index: 'src/browser.ts' }, outdir: 'dist/browser', format: 'esm', platform: 'browser', target: 'es2022', splitting: true, external: QUICKJS }),
  build({ ...common, entryPoints: { index: 'src/react-native.ts' }, outdir: 'dist/react-native', format: 'esm', platform: 'neutral', target: 'es2020' }),
]);

const [bundled] = generateDtsBundle(
  [{ filePath: path.join(root, 'src/browser.ts'), output: { noBanner: true, exportReferencedTypes: false } }],
  { preferredConfigPath: path.join(root, 'tsconfig.build.json') },
);
const types = writeOutZodTypes(bundled!);
fs.writeFileSync(path.join(dist, 'index.d.ts'), types);
// The same declarations typed as CommonJS, for `require` (TypeScript reads .d.ts as ESM here).
fs.writeFileSync(path.join(dist, 'index.d.cts'), types);

/**
 * The bundled declarations carry the protocol's zod schemas (`declare const X: z.ZodObject<…>`,
 * `type X = z.infer<typeof X>`). Each such type is replaced by what TypeScript infers for it,
 * and the schemas go: an app then needs no zod to type-check against the SDK.
 */
function writeOutZodTypes(source: string): string {
  const file = path.join(root, 'dist', '.types-with-zod.d.ts');
  fs.writeFileSync(file, source);
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler });
  const checker = program.getTypeChecker();
  const sourceFile = program.getSourceFile(file)!;
  const printer = ts.createPrinter({ removeComments: true });
  const flags = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.MultilineObjectLiterals | ts.NodeBuilderFlags.UseSingleQuotesForStringLiteralType;
  const edits: { start: number; end: number; text: string }[] = [];
  const schemas = new Set<string>();
  for (const statement of sourceFile.statements) {
    if (ts.isTypeAliasDeclaration(statement) && /^z\.(infer|output)</.test(statement.type.getText(sourceFile))) {
      const node = checker.typeToTypeNode(checker.getTypeAtLocation(statement.name), undefined, flags)!;
      const written = printer.printNode(ts.EmitHint.Unspecified, node, sourceFile);
      edits.push({ start: statement.type.getStart(sourceFile), end: statement.type.getEnd(), text: written });
      schemas.add(statement.name.text);
    }
  }
  for (const statement of sourceFile.statements) {
    const isSchema = ts.isVariableStatement(statement) && statement.declarationList.declarations.every((d) => ts.isIdentifier(d.name) && schemas.has(d.name.text));
    const isZodImport = ts.isImportDeclaration(statement) && (statement.moduleSpecifier as ts.StringLiteral).text === 'zod';
    if (isSchema || isZodImport) edits.push({ start: statement.getFullStart(), end: statement.getEnd(), text: '' });
  }
  let out = source;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  fs.rmSync(file);
  if (/\bz\.|from 'zod'/.test(out)) throw new Error('The SDK types still refer to zod: a public type uses a schema this build does not write out');
  return out.trimStart();
}
