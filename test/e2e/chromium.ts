// Debian's Chromium through playwright-core (which never downloads a browser), started the one
// way every e2e suite uses: headless, and without the background connections a closed network
// refuses.
//
// The headless shell (Debian's chromium-headless-shell, the same Blink without the browser's
// interface) is preferred: the same site views cost it about 40% less CPU than the full browser in
// headless mode (41-48 against 67-78 CPU-seconds, measured in a cgroup), and the suite is
// CPU-bound. Without it the full browser is used, and the suite says so once.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_BROWSER = '/usr/bin/chromium';
const INSTALL = 'apt-get install chromium-headless-shell fonts-liberation fonts-dejavu-core';

let noted = false;

/** The browser binary: CHROMIUM_PATH, else the headless shell, else the full browser. */
export function chromiumPath(): string {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    // A missing browser is a setup problem, not a page defect: fail saying what to install.
    if (!existsSync(chosen)) throw new Error(`no Chromium at CHROMIUM_PATH=${chosen}: ${INSTALL} (or point CHROMIUM_PATH at a Chromium)`);
    return chosen;
  }
  if (existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  if (existsSync(FULL_BROWSER)) {
    if (!noted) console.warn(`e2e: ${HEADLESS_SHELL} not found, using ${FULL_BROWSER} (about 40% more CPU; ${INSTALL})`);
    noted = true;
    return FULL_BROWSER;
  }
  throw new Error(`no Chromium at ${HEADLESS_SHELL} or ${FULL_BROWSER}: ${INSTALL} (or set CHROMIUM_PATH)`);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
