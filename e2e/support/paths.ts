import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist');
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'e2e/screenshots');
