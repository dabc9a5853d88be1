#!/usr/bin/env node
// Pre-test step: the end-to-end tests need Chromium. Use CHROMIUM_PATH, then Debian's
// /usr/bin/chromium; install Debian's package when running as root; otherwise explain.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].filter(Boolean);
const found = candidates.find((p) => fs.existsSync(p));
if (found) {
  console.log(`Chromium: ${found}`);
  process.exit(0);
}
if (process.getuid?.() === 0) {
  console.log('Chromium not found: installing Debian\'s chromium package...');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
  if (fs.existsSync('/usr/bin/chromium')) process.exit(0);
}
console.error([
  'Chromium is required for the end-to-end tests and was not found.',
  'Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary.',
].join('\n'));
process.exit(1);
