// Headless Chromium (Debian's chromium) driven by playwright-core; missing → skip locally, fail in CI.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import type { Availability } from './engines';

export const CHROMIUM = '/usr/bin/chromium';

export function chromiumAvailable(): Availability<string> {
  return existsSync(CHROMIUM) ? { ok: true, value: CHROMIUM } : { ok: false, reason: 'no /usr/bin/chromium (apt-get install chromium)' };
}

export function launch(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
