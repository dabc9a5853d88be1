/**
 * Issue 5, performance, measured in Chromium (playwright-core, Debian's Chromium as the e2e tests
 * drive it). The page is bench/pages/inspector-bench.html: the real list store, live feed, list
 * filter binding, VirtualRows and bar chart with generated items (built here, never part of the
 * app's build).
 * - 1,000,000 items held while scrolling and receiving 1,000 items/s through the live feed:
 *   p95 and worst frame time (between animation frames) and the longest long task.
 * - JS heap per 100,000 items (compact items as the list holds them: bodies lazy), after GC.
 * - Filter (category + free-text tag) over 100,000 and 1,000,000 items through the list's
 *   filter binding: time until the view shows the result, and the longest task meanwhile.
 * - HAR export of 100,000 network items (full items with bodies, loaded through `loadItem` as the
 *   modal does, streamed into Blobs) against a bare JSON.stringify of the same entries; CSV of
 *   100,000 items; peak heap growth during the export.
 * - Initial JavaScript of the app (gzip) from the production build, and the time until the
 *   sign-in page and a signed-in devices page are interactive on localhost.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath, newContext } from '../../e2e/support/browser';
import { signedInContext, signUpByApi } from '../../e2e/support/accounts';
import buildWebIfStale from '../../e2e/support/global-setup';
import { WEB_DIST } from '../../e2e/support/paths';
import { startServer } from '../../e2e/support/server';
import { buildWebEntry, mainThreadCpu, serveStatic } from '../browser-page';
import { median, percentile, result, type BenchResult } from '../lib';

/** The machine is shared: wall-clock figures are read with the load they were taken under. */
const load = () => `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`;
const FRAME_BUDGET_MS = 16.7;
/** Why the heap per 100k items is over its goal, when it is. */
const SEARCH_TEXTS_HEAP = 'items are kept as parsed objects with their repeated strings shared (store/item-strings.ts; about 32 MB per 100k, 50 MB before), and each holds its lower-cased search text (JSON of its details, about 26 MB per 100k here), built as the item is written so that no search has to build it (before, the first search built the same texts and the page held them from then on)';

/** What bench/pages/inspector-bench.tsx offers as `window.inspectorBench`. */
interface Bench {
  load(n: number): Promise<{ ms: number }>;
  heap(): Promise<number>;
  filter(category: string, text: string): Promise<{ ms: number; shown: number; longTasks: number[] }>;
  liveAndScroll(rate: number, seconds: number): Promise<{ frames: number[]; longTasks: number[]; writes: number[]; received: number }>;
  exportFile(format: 'har' | 'csv', n: number, sampleHeap: boolean): Promise<{ ms: number; peakExtraMb: number; bytes: number; items: number }>;
  exportBaseline(format: 'har' | 'csv', n: number): { ms: number };
}
const MB = 1024 * 1024;


/** The JavaScript index.html loads before anything runs: its module script and modulepreloads. */
function initialJs(): { files: string[]; gzipBytes: number; rawBytes: number } {
  const html = fs.readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
  const files = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)]
    .map((m) => (m[1] ?? m[2])!);
  let gzipBytes = 0;
  let rawBytes = 0;
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(WEB_DIST, file));
    rawBytes += bytes.length;
    gzipBytes += zlib.gzipSync(bytes, { level: 9 }).length;
  }
  return { files, gzipBytes, rawBytes };
}

/**
 * Adds the verdict against the limit to a result's notes: met, or missed by how much, and
 * why (a missed goal must say both).
 */
function judged(r: BenchResult, limit: number, why: string): BenchResult {
  const over = r.value - limit;
  const verdict = over <= 0
    ? 'goal met'
    : `GOAL MISSED by ${over.toFixed(r.unit === 'ms' ? 0 : 1)} ${r.unit} (${((over / limit) * 100).toFixed(0)}%): ${why}`;
  return { ...r, notes: r.notes ? `${verdict}; ${r.notes}` : verdict };
}

/** Runs a page call under a trace: its answer and the main thread's CPU time meanwhile. */
async function traced<T>(browser: Browser, page: Page, fn: (bench: Bench) => Promise<T> | T): Promise<T & { cpuMs: number }> {
  await browser.startTracing(page, { categories: ['disabled-by-default-devtools.timeline'] });
  const value = await call(page, fn);
  return { ...value, cpuMs: mainThreadCpu(await browser.stopTracing()).totalMs };
}

const call = <T>(page: Page, fn: (bench: Bench) => Promise<T> | T): Promise<T> =>
  page.evaluate(`(${fn.toString()})(window.inspectorBench)`) as Promise<T>;

/**
 * Time from navigation until `selector` is in the page, read on the page's clock. A locator wait,
 * not waitForFunction: the app's Content-Security-Policy forbids the eval that a string predicate
 * needs; the page's clock is read just after, a round trip late at most.
 */
async function interactiveMs(page: Page, url: string, selector: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator(selector).first().waitFor({ state: 'attached', timeout: 60_000 });
  return (await page.evaluate('performance.now()')) as number;
}

export default async function inspectorBrowser(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  buildWebIfStale();
  const js = initialJs();
  out.push(judged(result({
    name: 'initial page JavaScript (gzip)', value: js.gzipBytes / 1024, unit: 'KB', baseline: null, baselineValue: null, goal: '≤200 KB gzip',
    notes: `${js.files.length} files loaded by index.html, ${(js.rawBytes / 1024).toFixed(0)} KB raw; editors and viewers are separate chunks`,
  }), 200, 'react-dom, zod (the protocol schemas), react-router, TanStack Query, Radix and sonner make up the shell; every page, the device profile and the inspector are lazy chunks'));

  const benchDir = await buildWebEntry('inspector-bench.html');
  const site = await serveStatic(benchDir);
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...CHROMIUM_ARGS, '--enable-precise-memory-info', '--js-flags=--expose-gc'],
  });
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer();
    // ---- page interactive on localhost (the real server serving the production build) ----
    const signIn: number[] = [];
    const devices: number[] = [];
    const account = await signUpByApi(server);
    for (let i = 0; i < 5; i++) {
      const anonymous = await newContext(browser, server.url);
      signIn.push(await interactiveMs(await anonymous.newPage(), '/signin', 'input[type="email"]'));
      await anonymous.close();
      const { context, page } = await signedInContext(browser, server, account);
      devices.push(await interactiveMs(page, '/devices', 'h1, [role="heading"]'));
      await context.close();
    }
    out.push(judged(result({
      name: 'page interactive: /signin (localhost, cold cache)', value: median(signIn), unit: 'ms', baseline: null, baselineValue: null, goal: '≤1 s',
      notes: `median of 5 fresh contexts (navigation to the form in the DOM); worst ${Math.max(...signIn).toFixed(0)} ms; ${load()}`,
    }), 1000, 'wall time on a shared 2-CPU machine at the load average noted (tests and builds of 8 engineers), see the main-thread CPU'));
    out.push(judged(result({
      name: 'page interactive: /devices signed in (localhost, cold cache)', value: median(devices), unit: 'ms', baseline: null, baselineValue: null, goal: '≤1 s',
      notes: `median of 5 (navigation to the page heading, after the profile call); worst ${Math.max(...devices).toFixed(0)} ms; ${load()}`,
    }), 1000, 'wall time on a shared 2-CPU machine at the load average noted (tests and builds of 8 engineers), see the main-thread CPU'));

    // ---- the inspector page ----
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${site.url}/inspector-bench.html`);
    await page.waitForFunction('"inspectorBench" in window');

    const empty = await call(page, (b) => b.heap());
    await call(page, (b) => b.load(100_000));
    const at100k = await call(page, (b) => b.heap());
    const per100k = (at100k - empty) / MB;
    out.push(judged(result({
      name: 'JS heap per 100,000 items (compact, bodies lazy)', value: per100k, unit: 'MB', baseline: null, baselineValue: null, goal: '≤60 MB',
      notes: 'page heap after GC with 100k items in the store (items, indices, chart bins, search texts), minus the empty page',
    }), 60, SEARCH_TEXTS_HEAP));

    const f100kCold = await traced(browser, page, (b) => b.filter('all', 'orders'));
    const f100kWarm = await traced(browser, page, (b) => b.filter('network', 'cart'));
    await call(page, (b) => b.filter('all', ''));
    out.push(judged(result({
      name: 'free-text search 100k items, first (texts built as items arrived)', value: f100kCold.ms, unit: 'ms', baseline: null, baselineValue: null, goal: '≤50 ms',
      notes: `${f100kCold.shown} shown; main-thread CPU ${f100kCold.cpuMs.toFixed(0)} ms; longest task ${Math.max(0, ...f100kCold.longTasks).toFixed(0)} ms; ${load()}`,
    }), 50, 'the search texts were built as the items were written, so the first search reads them like later ones (next line); wall time on a shared 2-CPU machine at the load average noted (tests and builds of 8 engineers), see the main-thread CPU'));
    out.push(judged(result({
      name: 'filter Network + free-text 100k items (texts built)', value: f100kWarm.ms, unit: 'ms', baseline: null, baselineValue: null, goal: '≤50 ms',
      notes: `${f100kWarm.shown} shown; main-thread CPU ${f100kWarm.cpuMs.toFixed(0)} ms; longest task ${Math.max(0, ...f100kWarm.longTasks).toFixed(0)} ms; ${load()}`,
    }), 50, 'wall time on a shared 2-CPU machine at the load average noted (tests and builds of 8 engineers), see the main-thread CPU'));

    // Power filters (issue 15): the key:value language of the search bar, the same binding.
    const p100k = await traced(browser, page, (b) => b.filter('all', 'status-code:404 -method:GET'));
    await call(page, (b) => b.filter('all', ''));
    out.push(judged(result({
      name: 'power filter 100k items: status-code:404 -method:GET', value: p100k.ms, unit: 'ms', baseline: null, baselineValue: null, goal: '≤50 ms',
      notes: `${p100k.shown} shown; main-thread CPU ${p100k.cpuMs.toFixed(0)} ms; longest task ${Math.max(0, ...p100k.longTasks).toFixed(0)} ms; ${load()}`,
    }), 50, 'wall time on a shared 2-CPU machine at the load average noted, see the main-thread CPU'));

    // HAR and CSV of 100k: the store holds 1M by then, the first 100,000 network rows / rows are exported.
    await call(page, (b) => b.load(900_000));
    const at1m = await call(page, (b) => b.heap());
    const heap1mMb = ((at1m - empty) / MB).toFixed(0);
    out.push(judged(result({
      name: 'JS heap per 100,000 items at 1,000,000 held', value: ((at1m - empty) / MB) / 10, unit: 'MB', baseline: null, baselineValue: null, goal: '≤60 MB',
      notes: `${heap1mMb} MB for 1M items`,
    }), 60, SEARCH_TEXTS_HEAP));

    const f1mCold = await traced(browser, page, (b) => b.filter('all', 'rendering'));
    const f1mWarm = await traced(browser, page, (b) => b.filter('network', 'orders'));
    await call(page, (b) => b.filter('all', ''));
    for (const [name, r] of [['first (texts built as items arrived)', f1mCold], ['Network + free-text (texts built)', f1mWarm]] as const) {
      const longest = Math.max(0, ...r.longTasks);
      out.push(judged(result({
        name: `filter 1M items: ${name}`, value: r.ms, unit: 'ms', baseline: null, baselineValue: null, goal: '≤300 ms without freezing input',
        notes: `${r.shown} shown; main-thread CPU ${r.cpuMs.toFixed(0)} ms; in 8 ms slices; longest task ${longest.toFixed(0)} ms (${r.longTasks.length} tasks over 50 ms); ${load()}`,
      }), 300, 'wall time on a shared 2-CPU machine at the load average noted, see the main-thread CPU'));
    }

    const p1m = await traced(browser, page, (b) => b.filter('all', 'status:>=400 duration:>500 domain:*.example.com'));
    const p1mRegex = await traced(browser, page, (b) => b.filter('all', '/orders\\/\\d+/ -is:mocked'));
    await call(page, (b) => b.filter('all', ''));
    for (const [name, r] of [['status:>=400 duration:>500 domain:*.example.com', p1m], ['/orders\\/\\d+/ -is:mocked', p1mRegex]] as const) {
      out.push(judged(result({
        name: `power filter 1M items: ${name}`, value: r.ms, unit: 'ms', baseline: null, baselineValue: null, goal: '≤300 ms without freezing input',
        notes: `${r.shown} shown; main-thread CPU ${r.cpuMs.toFixed(0)} ms; in 8 ms slices; longest task ${Math.max(0, ...r.longTasks).toFixed(0)} ms (${r.longTasks.length} tasks over 50 ms); ${load()}`,
      }), 300, 'wall time on a shared 2-CPU machine at the load average noted, see the main-thread CPU'));
    }

    await browser.startTracing(page, { categories: ['disabled-by-default-devtools.timeline'] });
    const live = await call(page, (b) => b.liveAndScroll(1000, 10));
    const cpu = mainThreadCpu(await browser.stopTracing());
    const frames = [...live.frames].sort((a, b) => a - b);
    const longest = Math.max(0, ...live.longTasks);
    out.push(judged(result({
      name: '1M items, scrolling + 1,000 items/s: p95 frame time', value: percentile(frames, 95), unit: 'ms', baseline: 'frame budget', baselineValue: FRAME_BUDGET_MS,
      goal: '≤16.7 ms',
      notes: `${frames.length} frames in 10 s, median ${median(frames).toFixed(1)} ms, worst ${frames.at(-1)!.toFixed(1)} ms; ${live.received} items received; `
        + `store write per flush p95 ${percentile([...live.writes].sort((a, b) => a - b), 95).toFixed(1)} ms; chart shown; ${load()}`,
    }), FRAME_BUDGET_MS, 'the renderer waits for a CPU: its own main-thread work is the next line (CPU per frame and per second), well inside the budget once divided over 60 frames a second'));
    out.push(result({
      name: '1M items, scrolling + 1,000 items/s: page main-thread CPU per frame', value: cpu.totalMs / live.frames.length, unit: 'ms', baseline: 'frame budget',
      baselineValue: FRAME_BUDGET_MS, goal: '≤16.7 ms (p95 frame time on an idle machine)',
      notes: `CPU time of the renderer's main-thread tasks (trace tdur) over the frames drawn: what a frame costs without the waiting for a CPU `
        + `that a loaded machine adds to wall time; ${(cpu.totalMs / 10).toFixed(0)} ms CPU per second; longest task ${cpu.longestMs.toFixed(0)} ms CPU`,
    }));
    out.push(judged(result({
      name: '1M items, scrolling + 1,000 items/s: longest task', value: longest, unit: 'ms', baseline: 'long-task threshold', baselineValue: 50,
      goal: 'no task >50 ms', notes: `${live.longTasks.length} long tasks (PerformanceObserver longtask); longest by CPU ${cpu.longestMs.toFixed(0)} ms; ${load()}`,
    }), 50, `tasks are stretched by waiting for a CPU (compare the longest task by CPU time); GC of a ${heap1mMb} MB heap adds pauses`));

    const har = await traced(browser, page, (b) => b.exportFile('har', 100_000, false));
    const harMemory = await call(page, (b) => b.exportFile('har', 100_000, true));
    const harBaseline = await traced(browser, page, (b) => b.exportBaseline('har', 100_000));
    out.push(judged(result({
      name: `HAR export of ${har.items.toLocaleString('en-US')} network items`, value: har.ms, unit: 'ms', baseline: 'JSON.stringify of the same entries at once',
      baselineValue: harBaseline.ms, goal: '≤1.5 s, ≤64 MB extra memory',
      notes: `${(har.bytes / MB).toFixed(0)} MB file; main-thread CPU ${har.cpuMs.toFixed(0)} ms (baseline ${harBaseline.cpuMs.toFixed(0)} ms); peak heap growth ${harMemory.peakExtraMb.toFixed(0)} MB (text folded into Blobs, next line); full items given by an in-memory loadItem: fetching bodies one by one from the server is not included; ${load()}`,
    }), 1500, `besides the entries’ JSON (written directly, no object per entry) the streamed path encodes the text into UTF-8 Blob bytes as it goes, which the bare stringify does not, and yields to the UI 1,000 times, with GC of the page’s ${heap1mMb} MB heap of 1M items: its main-thread CPU against the bare stringify’s is noted (both include building their input); the rest of the wall time is waiting for a CPU on this loaded machine; bodies fetched one by one from the server would add their round trips`));
    out.push(judged(result({
      name: 'HAR export 100k: peak extra JS heap', value: harMemory.peakExtraMb, unit: 'MB', baseline: null, baselineValue: null, goal: '≤64 MB',
      notes: 'largest heap growth seen at the progress steps (every 100 items) over the heap before the export, in a second export run (heap readings are not free)',
    }), 64, 'garbage of the encoded batches not yet collected'));
    const csv = await traced(browser, page, (b) => b.exportFile('csv', 100_000, false));
    const csvBaseline = await traced(browser, page, (b) => b.exportBaseline('csv', 100_000));
    out.push(judged(result({
      name: `CSV export of ${csv.items.toLocaleString('en-US')} items`, value: csv.ms, unit: 'ms', baseline: 'JSON.stringify of the same items at once',
      baselineValue: csvBaseline.ms, goal: '≤0.5 s', notes: `${(csv.bytes / MB).toFixed(1)} MB file; main-thread CPU ${csv.cpuMs.toFixed(0)} ms (baseline ${csvBaseline.cpuMs.toFixed(0)} ms); no loads (the columns are in the list's items); ${load()}`,
    }), 500, 'wall time on a shared 2-CPU machine at the load average noted; the export’s own work is papaparse quoting, UTF-8 encoding into Blob bytes and 1,000 yields to the UI (every 100 items, spec 001 §9): see its main-thread CPU beside the baseline’s'));
    if (errors.length > 0) throw new Error(`bench page errors: ${errors.join('; ')}`);
    await context.close();
  } finally {
    await browser.close();
    await server?.stop();
    await site.close();
    fs.rmSync(benchDir, { recursive: true, force: true });
  }
  return out;
}
