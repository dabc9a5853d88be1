/**
 * `npm run bench`: runs every suite in bench/suites (in file-name order), prints a table and
 * writes bench/results/latest.json. `npm run bench -- ingest` runs only suites whose file name
 * contains "ingest".
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchResult, BenchSuite } from './lib';

const here = path.dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
const files = fs.readdirSync(path.join(here, 'suites')).filter((f) => f.endsWith('.ts')).sort()
  .filter((f) => !filter || f.includes(filter));

const results: BenchResult[] = [];
for (const file of files) {
  console.log(`\n▶ ${file}`);
  const suite = (await import(pathToFileURL(path.join(here, 'suites', file)).href)).default as BenchSuite;
  try {
    const rows = await suite();
    for (const r of rows) console.log(`  ${r.name}: ${format(r.value)} ${r.unit}${r.ratio !== null ? ` (${r.ratio}× ${r.baseline})` : ''}`);
    results.push(...rows);
  } catch (err) {
    console.error(`  suite failed: ${(err as Error).stack ?? String(err)}`);
    process.exitCode = 1;
  }
}

function format(n: number): string {
  return Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);
}

console.log('');
console.table(results.map((r) => ({
  name: r.name, value: format(r.value), unit: r.unit, baseline: r.baseline ?? '', 'baseline value': r.baselineValue === null ? '' : format(r.baselineValue),
  ratio: r.ratio ?? '', goal: r.goal ?? '',
})));
const outDir = path.join(here, 'results');
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'latest.json'), JSON.stringify(results, null, 2) + '\n');
console.log(`Wrote ${path.relative(process.cwd(), path.join(outDir, 'latest.json'))}`);
