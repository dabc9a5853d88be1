import { z } from 'zod';

// Both hosts' Content-Security-Policy runs no string as code (script-src without 'unsafe-eval'),
// and zod 4 probes `new Function` to compile its object parsers, which the policy refuses (and
// reports). Jitless parsing is slower per item (about 2.5× for a live batch, measured in Node:
// ~35 → ~95 µs per compact item), which is a few percent of the main thread at 1,000 items/s;
// keeping eval out of the page is worth that. Imported first by main.tsx, before any schema runs.
z.config({ jitless: true });
