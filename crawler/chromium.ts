// Which Chromium the browser fallback (browser-fallback.ts) runs and with which switches: the
// executable found from BROWSER_EXECUTABLE_PATH or the usual install paths, and the launch flags
// that keep its process tree small and off Google's hosts.

import { accessSync, constants } from 'node:fs';

export const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

/**
 * The features Playwright itself enables and disables with its own --enable-features and
 * --disable-features. Chromium honours only the last of each switch on its command line, so ours
 * must repeat them: several keep Chromium from calling Google's hosts at start, HttpsUpgrades keeps
 * http navigations on http. The real-Chromium test fails when a Playwright upgrade changes the list.
 */
const PLAYWRIGHT_ENABLED_FEATURES = ['CDPScreenshotNewSurface', 'SkipListAccountsWithoutGaiaCookies'];
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding',
  'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Each flag after the first line is kept because it lowers the memory of the Chromium process tree
 * and the challenge still clears; what each one saves, and the flags tried and left out, are in
 * docs/crawler.md §4 (browser fallback: flags and memory).
 */
export const LAUNCH_ARGS = [
  // Without the background-networking ones Chromium tries to reach Google's hosts, which a closed
  // network refuses.
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  // Chromium preloads its WebUI omnibox popups into a renderer of their own, headless too.
  `--disable-features=${['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', ...PLAYWRIGHT_DISABLED_FEATURES].join(',')}`,
  // No spare renderer kept warm, and a page's cross-site iframes share its renderer. The browser
  // shows only the platform's own pages, a fresh context per use: isolating sites buys nothing.
  '--disable-site-isolation-trials',
  // The GPU thread (software only, given --disable-gpu) runs in the browser process; nothing here is
  // drawn for a person or screenshotted.
  '--in-process-gpu', '--disable-software-rasterizer',
  // The network service runs inside the browser process.
  `--enable-features=${['NetworkServiceInProcess2', ...PLAYWRIGHT_ENABLED_FEATURES].join(',')}`,
  // Children started afresh instead of forked from a zygote (allowed only with --no-sandbox).
  '--no-zygote',
];

const isExecutable = (p: string): boolean => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The Chromium to use, or why there is none. */
export function findChromium(setting: string | null, candidates: readonly string[] = CHROMIUM_CANDIDATES): { path: string } | { why: string } {
  if (setting !== null && setting.toLowerCase() === 'off') return { why: 'disabled (BROWSER_EXECUTABLE_PATH=off)' };
  if (setting !== null) return isExecutable(setting) ? { path: setting } : { why: `BROWSER_EXECUTABLE_PATH ${setting} is not an executable file` };
  const found = candidates.find(isExecutable);
  return found ? { path: found } : { why: `no Chromium found (looked at ${candidates.join(', ')}; install Debian's chromium, or run the container image's "browser" target)` };
}
