// The 7 desktop browser identities plain requests rotate through (spec point 5), one chosen at
// random per request. Each carries what its headers need: Chrome-family browsers send client hints
// (sec-ch-ua*), Firefox and Safari do not. Versions are the mid-2026 stable releases; refresh them
// together with docs/crawler.md §6 when they age (an outdated browser is itself a bot signal).

export type BrowserFamily = 'chrome' | 'edge' | 'firefox' | 'safari';

export interface BrowserIdentity {
  readonly userAgent: string;
  readonly family: BrowserFamily;
  /** Client-hint platform name, as in `sec-ch-ua-platform`. */
  readonly platform: 'Windows' | 'macOS' | 'Linux';
  /** `sec-ch-ua` value; null for browsers that send no client hints. */
  readonly secChUa: string | null;
}

const CHROME = '148';
const FIREFOX = '152.0';
const SAFARI = '26.4';

const chromeHints = (brand: string): string =>
  `"Chromium";v="${CHROME}", "${brand}";v="${CHROME}", "Not/A)Brand";v="24"`;

export const BROWSER_IDENTITIES: readonly BrowserIdentity[] = [
  {
    family: 'chrome', platform: 'Windows', secChUa: chromeHints('Google Chrome'),
    userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME}.0.0.0 Safari/537.36`,
  },
  {
    family: 'chrome', platform: 'macOS', secChUa: chromeHints('Google Chrome'),
    userAgent: `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME}.0.0.0 Safari/537.36`,
  },
  {
    family: 'chrome', platform: 'Linux', secChUa: chromeHints('Google Chrome'),
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME}.0.0.0 Safari/537.36`,
  },
  {
    family: 'edge', platform: 'Windows', secChUa: chromeHints('Microsoft Edge'),
    userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME}.0.0.0 Safari/537.36 Edg/${CHROME}.0.0.0`,
  },
  {
    family: 'firefox', platform: 'Windows', secChUa: null,
    userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${FIREFOX}) Gecko/20100101 Firefox/${FIREFOX}`,
  },
  {
    family: 'firefox', platform: 'Linux', secChUa: null,
    userAgent: `Mozilla/5.0 (X11; Linux x86_64; rv:${FIREFOX}) Gecko/20100101 Firefox/${FIREFOX}`,
  },
  {
    family: 'safari', platform: 'macOS', secChUa: null,
    userAgent: `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${SAFARI} Safari/605.1.15`,
  },
];

/** One identity, chosen with `random` (a [0, 1) source, injectable for tests). */
export function pickIdentity(random: () => number): BrowserIdentity {
  const i = Math.min(BROWSER_IDENTITIES.length - 1, Math.floor(random() * BROWSER_IDENTITIES.length));
  return BROWSER_IDENTITIES[i]!;
}

/**
 * The identity of a user agent we did not choose (harvested from the challenge proxy or the
 * browser), so its headers match it: client hints only when it is Chromium-based.
 */
export function identityOf(userAgent: string): BrowserIdentity {
  const known = BROWSER_IDENTITIES.find((b) => b.userAgent === userAgent);
  if (known) return known;
  const platform = /Windows/.test(userAgent) ? 'Windows' : /Mac OS X|Macintosh/.test(userAgent) ? 'macOS' : 'Linux';
  const chrome = /(?:Headless)?Chrome\/(\d+)/.exec(userAgent);
  if (/Firefox\//.test(userAgent) || !chrome) {
    return { userAgent, platform, family: /Firefox\//.test(userAgent) ? 'firefox' : 'safari', secChUa: null };
  }
  const major = chrome[1]!;
  const edge = /Edg\//.test(userAgent);
  const brand = edge ? 'Microsoft Edge' : /HeadlessChrome/.test(userAgent) ? 'HeadlessChrome' : 'Google Chrome';
  return {
    userAgent, platform, family: edge ? 'edge' : 'chrome',
    secChUa: `"Chromium";v="${major}", "${brand}";v="${major}", "Not/A)Brand";v="24"`,
  };
}
