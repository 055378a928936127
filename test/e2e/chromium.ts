// Debian's Chromium through playwright-core (which never downloads a browser), started the one
// way every e2e suite uses: headless, and without the background connections a closed network
// refuses.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  // A missing browser is a setup problem, not a page defect: fail saying what to install.
  if (!existsSync(executablePath)) {
    throw new Error(`no Chromium at ${executablePath}: apt-get install chromium fonts-liberation fonts-dejavu-core (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
