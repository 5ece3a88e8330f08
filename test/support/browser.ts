import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { projectRoot } from '../../lib/project-root.ts';

/**
 * Debian's Chromium as the browser tests and the screenshot script drive it, through
 * playwright-core (no downloaded browser; `npm test` installs the package when missing).
 */

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Where the browser tests leave their screenshots for a person to look at (docs/playground.md,
 * "Screenshots"): `.local-data/screenshots/` in the checkout, which git ignores, unless
 * `SPOKE_SCREENSHOT_DIR` names another folder.
 */
export function screenshotDir(): string {
  return resolve(process.env.SPOKE_SCREENSHOT_DIR ?? join(projectRoot, '.local-data', 'screenshots'));
}
